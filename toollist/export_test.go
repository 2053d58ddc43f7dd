package toollist

// AppendFiguresJSON is WriteFiguresJSON with no flush: the whole text at
// once, for the tests that read it back.
func AppendFiguresJSON(dst []byte, f *Figures) []byte {
	return WriteFiguresJSON(dst, f, nil)
}
