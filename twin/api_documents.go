package twin

import (
	"net/http"
)

// Documents: the current version of a work space's document.

// needDocument refuses a space that keeps no document.
func needDocument(sp *space) *apiError {
	if sp.Kind != "work" {
		return refuse("NOT_AN_ORACLE", sp.Name+" keeps no document",
			"Read a SPACE made with document true, or post another kind here.")
	}
	return nil
}

func (c *call) documentGet() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	if e := needDocument(sp); e != nil {
		return 0, nil, e
	}
	if sp.Current == 0 {
		return 0, nil, refuse("NOT_AN_ORACLE", quote(sp.Name)+" has no current document yet.",
			"An owner writes one with POST /v1/spaces/"+sp.Name+"/versions.")
	}
	pending := 0
	for _, v := range sp.Versions {
		if v.State == "pending" {
			pending++
		}
	}
	out := struct {
		versionView
		Pending int `json:"pending"`
	}{viewVersion(sp, sp.version(sp.Current), true), pending}
	return http.StatusOK, out, nil
}
