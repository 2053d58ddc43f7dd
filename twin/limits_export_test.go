package twin

// AppRegistrationBurst is how many apps one address may register at once.
const AppRegistrationBurst = appRegistrationBurst
