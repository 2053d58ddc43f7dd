package toollist

// AppendFiguresJSON is WriteFiguresJSON with no flush: the whole text at
// once, for the tests that read it back.
func AppendFiguresJSON(dst []byte, f *Figures) []byte {
	return WriteFiguresJSON(dst, f, nil)
}

// ParseWith is Parse that also applies the what-ifs ts while measuring,
// as ReadWith does.
func ParseWith(path string, data []byte, ts ...Transform) (*Capture, error) {
	return parse(path, data, nil, nil, ts)
}
