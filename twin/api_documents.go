package twin

import (
	"net/http"
)

// Documents: the current version of a work space's document.

func needWork(sp *space) *apiError {
	if sp.Kind != "work" {
		return conflict("NOT_A_WORK_SPACE", quote(sp.Name)+" is a general space; only a work space keeps a document and tasks.",
			"Use a space created with kind work.")
	}
	return nil
}

// Documents and versions.

func (c *call) documentGet() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	if e := needWork(sp); e != nil {
		return 0, nil, e
	}
	if sp.Current == 0 {
		return 0, nil, notFound("NO_DOCUMENT", quote(sp.Name)+" has no current document yet.",
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
