package eventstream

// Offset returns the number of bytes read so far, for the tests that check
// the scanner read every byte.
func (s *Scanner) Offset() int64 { return s.base + int64(len(s.buf)) }
