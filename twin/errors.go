package twin

import (
	"net/http"
	"regexp"
)

// Refusals. Every route answers a refusal as the service does: the status its
// code carries, and {"error": {code, message, fix, detail?, sections?, doc,
// request_id}}. The codes and their statuses are the service's (its error
// table, src/db/errors.ts, read at 00a0b06); the messages and fixes are the
// twin's own words. A message starts with its code and a full stop, as the
// service's do; the detail says what in this request was wrong, and is sent
// only when it is plain text, as the service's renderer sends it.

// errorCode is one row of the twin's error table.
type errorCode struct {
	Status  int
	Message string // the code's own sentence, after "CODE. "
}

// errorTable is every code the twin answers, with the service's status.
var errorTable = map[string]errorCode{
	"INVALID_REQUEST":        {400, "Something in the request is not what this route takes."},
	"TOKEN_MISSING":          {401, "This route needs a bearer token."},
	"TOKEN_INVALID":          {401, "That token was never handed out here."},
	"TOKEN_EXPIRED":          {401, "That token is past its expiry."},
	"CHALLENGE_INVALID":      {401, "That challenge is unknown here, or was used already."},
	"CHALLENGE_EXPIRED":      {401, "That challenge is more than five minutes old."},
	"SIGNATURE_INVALID":      {401, "The signature does not verify for that key."},
	"INSUFFICIENT_SCOPE":     {403, "An app token cannot do this."},
	"WRITE_DENIED":           {403, "You may not write in this SPACE."},
	"READ_DENIED":            {403, "You may not read this SPACE."},
	"CONTROL_DENIED":         {403, "Your role does not reach this."},
	"TASK_DENIED":            {403, "Your role does not reach this task action."},
	"SPACE_NOT_FOUND":        {404, "There is no SPACE by that name."},
	"POST_NOT_FOUND":         {404, "No post you may read has that id."},
	"SPACE_NAME_TAKEN":       {409, "Another SPACE has that name."},
	"NAME_RESERVED":          {400, "That SPACE name is kept by the service."},
	"REQUEST_NOT_PENDING":    {409, "That ask was decided already."},
	"REQUEST_NOT_FOUND":      {404, "There is no ask by that id that you may decide."},
	"INVALID_ROLE":           {400, "No SPACE has that role."},
	"INVALID_KIND":           {400, "No post takes that kind."},
	"TITLE_REQUIRED":         {400, "A post of this kind carries a title."},
	"INVALID_CATEGORY":       {400, "A SPACE cannot be filed that way."},
	"INVITE_INVALID":         {404, "That link or code opens no SPACE here."},
	"INVITE_EXPIRED":         {409, "That link is past its expiry."},
	"INVITE_EXHAUSTED":       {409, "That link has no uses left."},
	"REPLY_TARGET_NOT_FOUND": {422, "reply_to names no post of this SPACE."},
	"SOURCE_NOT_FOUND":       {422, "A source names no post of this SPACE."},
	"NOT_AN_ORACLE":          {409, "This SPACE keeps no document."},
	"VERSION_CHANGED":        {409, "The document moved on from the version you changed."},
	"PROPOSAL_DECIDED":       {409, "That proposal is no longer waiting."},
	"VERSION_NOT_FOUND":      {404, "That SPACE has no version with that number."},
	"TASK_NOT_FOUND":         {404, "This SPACE has no task with that number."},
	"TASK_NOT_OPEN":          {409, "That task is not open to you."},
	"TASK_AFTER_INVALID":     {422, "A task in after is no task of this SPACE."},
	"PEER_NOT_REGISTERED":    {422, "No KEY with that peer id has registered here."},
	"TOO_LARGE":              {413, "The request body is larger than the twin reads."},
	"RATE_LIMITED":           {429, "Too many requests of this kind came from your address."},
	"INTERNAL":               {500, "The twin failed while answering."},
}

// renderableDetail is the text a detail may hold to be sent: the service's
// renderer drops any other (quotes, braces, newlines, over 200 characters).
var renderableDetail = regexp.MustCompile(`^[A-Za-z0-9 .,:;_@#%+/()\[\]-]{1,200}$`)

// apiError is a refusal: a code from errorTable, what in the request was
// wrong (Detail), and what to do (Fix).
type apiError struct {
	Status   int // when not 0, the status instead of the code's
	Code     string
	Detail   string
	Fix      string
	Sections []string // the names a section may take, when it named none
}

// status is the HTTP status of the refusal's code.
func (e *apiError) status() int {
	if e.Status != 0 {
		return e.Status
	}
	if row, ok := errorTable[e.Code]; ok {
		return row.Status
	}
	return http.StatusInternalServerError
}

// refusalBody is the refusal as the error envelope and join_refused carry
// it: code, message, fix, then detail and sections when there are some.
type refusalBody struct {
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
	Detail   string   `json:"detail,omitempty"`
	Sections []string `json:"sections,omitempty"`
}

func (e *apiError) body() refusalBody {
	row, ok := errorTable[e.Code]
	code := e.Code
	if !ok {
		code, row = "INTERNAL", errorTable["INTERNAL"]
	}
	b := refusalBody{Code: code, Message: code + ". " + row.Message, Fix: e.Fix, Sections: e.Sections}
	if renderableDetail.MatchString(e.Detail) {
		b.Detail = e.Detail
	}
	return b
}

// refuse is a refusal with code.
func refuse(code, detail, fix string) *apiError {
	return &apiError{Code: code, Detail: detail, Fix: fix}
}

func badRequest(detail, fix string) *apiError { return refuse("INVALID_REQUEST", detail, fix) }
