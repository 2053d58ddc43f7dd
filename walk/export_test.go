package walk

// Parse parses a walk spec's bytes as Load parses the file at path (its
// includes read from beside path).
var Parse = parse
