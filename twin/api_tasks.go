package twin

import (
	"net/http"
	"strings"
)

// Tasks: a work space's task list, and the next task for a KEY.

func taskFingerprint(sp string, n int) string { return "task.reference:" + sp + "/" + itoa(n) }

type taskView struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Body        string `json:"body,omitempty"`
	State       string `json:"state"`
	Assignee    string `json:"assignee,omitempty"`
	Fingerprint string `json:"fingerprint"`
	CreatedAt   string `json:"created_at"`
	AcceptedAt  string `json:"accepted_at,omitempty"`
	DoneAt      string `json:"done_at,omitempty"`
	Result      string `json:"result,omitempty"`
}

func viewTask(sp *space, t *task, full bool) taskView {
	v := taskView{Number: t.Number, Title: t.Title, State: t.State, Assignee: t.Assignee,
		Fingerprint: taskFingerprint(sp.Name, t.Number), CreatedAt: dbTime(t.Created),
		AcceptedAt: optTime(t.Accepted), DoneAt: optTime(t.Done), Result: t.Result}
	if full {
		v.Body = t.Body
	}
	return v
}

type taskInput struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

func (c *call) taskCreate() (int, any, *apiError) {
	sp, e := c.spaceForAs("writer", "TASK_DENIED")
	if e != nil {
		return 0, nil, e
	}
	var in struct {
		taskInput
		Tasks []taskInput `json:"tasks"`
	}
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	list := in.Tasks
	if len(list) == 0 {
		list = []taskInput{in.taskInput}
	} else if in.Title != "" || in.Body != "" {
		return 0, nil, badRequest("Send either title and body for one task, or tasks for several, not both.",
			"Move the task into tasks, or drop tasks.")
	}
	if len(list) > 50 {
		return 0, nil, badRequest("At most 50 tasks are created at once.", "Send them in smaller batches.")
	}
	for i, t := range list {
		field := "title"
		if len(in.Tasks) > 0 {
			field = "tasks[" + itoa(i) + "].title"
		}
		if e := checkText(field, t.Title, 1, 200); e != nil {
			return 0, nil, e
		}
		if e := checkText(strings.TrimSuffix(field, "title")+"body", t.Body, 0, 20_000); e != nil {
			return 0, nil, e
		}
	}
	now := c.a.now()
	var views []taskView
	for _, t := range list {
		tk := &task{Number: len(sp.Tasks) + 1, Title: t.Title, Body: t.Body, State: "open", Created: now}
		sp.Tasks = append(sp.Tasks, tk)
		views = append(views, viewTask(sp, tk, true))
	}
	if len(in.Tasks) == 0 {
		return http.StatusCreated, map[string]taskView{"task": views[0]}, nil
	}
	return http.StatusCreated, map[string][]taskView{"tasks": views}, nil
}

func (c *call) taskList() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	state := c.r.URL.Query().Get("state")
	switch state {
	case "", "open", "accepted", "done":
	default:
		return 0, nil, badRequest("state must be open, accepted or done, not "+quote(state)+".", "Leave state out for every task.")
	}
	out := struct {
		Space  string     `json:"space"`
		Tasks  []taskView `json:"tasks"`
		Counts taskCounts `json:"counts"`
	}{Space: sp.Name, Tasks: []taskView{}}
	for _, t := range sp.Tasks {
		switch t.State {
		case "open":
			out.Counts.Open++
		case "accepted":
			out.Counts.Accepted++
		case "done":
			out.Counts.Done++
		}
		if state == "" || t.State == state {
			out.Tasks = append(out.Tasks, viewTask(sp, t, false))
		}
	}
	return http.StatusOK, out, nil
}

func (c *call) taskNext() (int, any, *apiError) {
	sp, e := c.spaceForAs("writer", "TASK_DENIED")
	if e != nil {
		return 0, nil, e
	}
	out := struct {
		Space string    `json:"space"`
		Task  *taskView `json:"task"`
	}{Space: sp.Name}
	var pick *task
	for _, t := range sp.Tasks {
		if t.State == "accepted" && t.Assignee == c.p.PeerID {
			pick = t // the caller's own unfinished task comes back first
			break
		}
	}
	if pick == nil {
		for _, t := range sp.Tasks {
			if t.State == "open" {
				pick = t
				t.State, t.Assignee, t.Accepted = "accepted", c.p.PeerID, c.a.now()
				break
			}
		}
	}
	if pick != nil {
		v := viewTask(sp, pick, true)
		out.Task = &v
	}
	return http.StatusOK, out, nil
}
