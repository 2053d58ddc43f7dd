package twin

import (
	"net/http"
	"regexp"
	"strconv"
	"time"
)

// Tasks: a SPACE's task list, and the next job for a KEY. The states are
// the service's: open, claimed (taken by next), done (a result marked it).

func taskFingerprint(sp string, n int) string { return "task.reference:" + sp + "/" + itoa(n) }

// taskView is a task as every answer shows it, the service's task_item():
// a jsonb object, so its keys come shortest first, then in byte order, and
// so do those of confirmations.
type taskView struct {
	Tag           *string           `json:"tag"`
	Body          string            `json:"body"`
	After         []string          `json:"after"`
	Cycle         int               `json:"cycle"`
	State         string            `json:"state"`
	Title         string            `json:"title"`
	Number        int               `json:"number"`
	DoneAt        *string           `json:"done_at"`
	TaskID        string            `json:"task_id"`
	Revision      int               `json:"revision"`
	ClaimedBy     *string           `json:"claimed_by"`
	CreatedAt     string            `json:"created_at"`
	CreatedBy     *string           `json:"created_by"`
	AcceptedAt    *string           `json:"accepted_at"`
	DonePostID    *string           `json:"done_post_id"`
	AfterNumbers  []*int            `json:"after_numbers"`
	ClaimedUntil  *string           `json:"claimed_until"`
	Confirmations taskConfirmations `json:"confirmations"`
}

// taskConfirmations are who confirmed a task in its cycle and how many
// accept it.
type taskConfirmations struct {
	Given    []string `json:"given"`
	Required int      `json:"required"`
}

// taskShort is a task as a write answers it: its number, task_id and state.
type taskShort struct {
	Number int    `json:"number"`
	TaskID string `json:"task_id"`
	State  string `json:"state"`
}

// taskKeyed is a task of a batch as the write answers it: the key it was
// sent with, or null, then as taskShort.
type taskKeyed struct {
	Key    *string `json:"key"`
	Number int     `json:"number"`
	TaskID string  `json:"task_id"`
	State  string  `json:"state"`
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func viewTask(sp *space, t *task, full bool) taskView {
	v := taskView{TaskID: t.ID, Number: t.Number, Title: t.Title, Tag: optString(t.Tag), State: t.State, After: t.After,
		Revision: 1, CreatedBy: optString(t.Creator), CreatedAt: dbTime(t.Created), ClaimedBy: optString(t.Assignee),
		DonePostID: optString(t.Result), DoneAt: optString(optTime(t.Done)), AfterNumbers: []*int{},
		Confirmations: taskConfirmations{Given: []string{}, Required: taskConfirmationsOf(sp)}}
	if full {
		v.Body = t.Body
	}
	if v.After == nil {
		v.After = []string{}
	}
	for _, id := range t.After {
		var n *int
		for _, o := range sp.Tasks {
			if o.ID == id {
				n = &o.Number
			}
		}
		v.AfterNumbers = append(v.AfterNumbers, n)
	}
	if !t.Accepted.IsZero() && t.Assignee != "" {
		until := dbTime(t.Accepted.Add(taskClaimHours * time.Hour))
		v.ClaimedUntil = &until
	}
	if t.State == "done" && v.Confirmations.Required < 1 {
		v.Confirmations.Required = 1
	}
	return v
}

// taskClaimHours is how long a claim lasts, the service's default.
const taskClaimHours = 24

// taskConfirmationsOf is how many confirmations accept a task in sp: two
// in a public SPACE, none in a private one, as the task list's settings say.
func taskConfirmationsOf(sp *space) int {
	if sp.Visibility == "public" {
		return 2
	}
	return 0
}

type taskInput struct {
	Key   string   `json:"key"`
	Title string   `json:"title"`
	Body  string   `json:"body"`
	Tag   string   `json:"tag"`
	After []string `json:"after"`
}

var (
	taskTagRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,39}$`)
	taskKeyRE = regexp.MustCompile(`^[a-z][a-z0-9_.-]{0,39}$`)
)

// addTasks checks a batch of tasks and adds them, all or none, numbered
// in the order sent; after names earlier keys of the batch, task_ids or
// numbers of the SPACE.
func (a *apiState) addTasks(sp *space, by string, list []taskInput, batch bool) ([]*task, *apiError) {
	if len(list) > 20 {
		return nil, badRequest("tasks holds at most 20", "Send them in smaller batches.")
	}
	keys := map[string]string{}
	ids := make([]string, len(list))
	for i, t := range list {
		field := ""
		if batch {
			field = "tasks[" + itoa(i) + "]."
		}
		if e := checkText(field+"title", t.Title, 1, 200); e != nil {
			return nil, e
		}
		if e := checkText(field+"body", t.Body, 0, 16_384); e != nil {
			return nil, e
		}
		if t.Tag != "" && !taskTagRE.MatchString(t.Tag) {
			return nil, badRequest(field+"tag is one lowercase word of at most 40 characters", "Correct the tag, or leave it out.")
		}
		if t.Key != "" {
			if !batch || !taskKeyRE.MatchString(t.Key) || keys[t.Key] != "" {
				return nil, badRequest(field+"key names one task of a batch: a lowercase word starting with a letter, once", "Correct the key.")
			}
		}
		if len(t.After) > 8 {
			return nil, badRequest(field+"after holds at most 8 tasks", "Name fewer.")
		}
		ids[i] = newUUID()
		for _, ref := range t.After {
			if keys[ref] == "" && sp.taskByRef(ref) == nil {
				return nil, refuse("TASK_AFTER_INVALID", ref, "Name an earlier key of this batch, or a task_id or number of this SPACE.")
			}
		}
		if t.Key != "" {
			keys[t.Key] = ids[i]
		}
	}
	now := a.now()
	var out []*task
	for i, t := range list {
		after := []string{}
		for _, ref := range t.After {
			if id := keys[ref]; id != "" {
				after = append(after, id)
			} else {
				after = append(after, sp.taskByRef(ref).ID)
			}
		}
		tk := &task{Number: len(sp.Tasks) + 1, ID: ids[i], Key: t.Key, Tag: t.Tag, After: after,
			Title: t.Title, Body: t.Body, State: "open", Created: now, Creator: by}
		sp.Tasks = append(sp.Tasks, tk)
		out = append(out, tk)
	}
	return out, nil
}

// taskByRef is the task a reference names: its task_id or its number.
func (sp *space) taskByRef(ref string) *task {
	for _, t := range sp.Tasks {
		if t.ID == ref || strconv.Itoa(t.Number) == ref {
			return t
		}
	}
	return nil
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
	batch := in.Tasks != nil
	list := in.Tasks
	if !batch {
		list = []taskInput{in.taskInput}
	} else if in.Title != "" || in.Body != "" || in.Tag != "" || in.Key != "" || in.After != nil {
		return 0, nil, badRequest("a task's own fields belong inside tasks when tasks is sent", "Move them into tasks, or send no tasks.")
	}
	if batch && len(list) == 0 {
		return 0, nil, badRequest("tasks holds 1 to 20 tasks", "Send at least one.")
	}
	added, e := c.a.addTasks(sp, c.p.PeerID, list, batch)
	if e != nil {
		return 0, nil, e
	}
	type answer struct {
		Space   string      `json:"space"`
		Task    *taskShort  `json:"task,omitempty"`
		Tasks   []taskKeyed `json:"tasks,omitempty"`
		Changed bool        `json:"changed"`
		Notice  string      `json:"notice"`
	}
	out := answer{Space: sp.Name, Changed: true, Notice: peerNotice}
	for _, t := range added {
		if batch {
			out.Tasks = append(out.Tasks, taskKeyed{Key: optString(t.Key), Number: t.Number, TaskID: t.ID, State: t.State})
		} else {
			out.Task = &taskShort{Number: t.Number, TaskID: t.ID, State: t.State}
		}
	}
	return http.StatusCreated, out, nil
}

// taskSettings are a SPACE's task settings, at the service's defaults.
type taskSettings struct {
	TaskConfirmations   int    `json:"task_confirmations"`
	TaskConfirmers      string `json:"task_confirmers"`
	TaskClaimHours      int    `json:"task_claim_hours"`
	UpkeepDocumentAfter int    `json:"upkeep_document_after"`
	UpkeepTasksHours    int    `json:"upkeep_tasks_hours"`
}

func (c *call) taskList() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	q := c.r.URL.Query()
	state := q.Get("state")
	switch state {
	case "", "open", "claimed", "done", "accepted", "retired":
	default:
		return 0, nil, badRequest("state is one of open, claimed, done, accepted, retired", "Leave state out for every task.")
	}
	if d := q.Get("detail"); d != "" && d != "full" && d != "compact" {
		return 0, nil, badRequest("detail is compact or full", "Leave detail out for full.")
	}
	limit, e := c.queryInt("limit", 50, 1, 200)
	if e != nil {
		return 0, nil, e
	}
	before, e := c.queryInt("before", 0, 0, 1<<31-1)
	if e != nil {
		return 0, nil, e
	}
	var items []taskView
	more := false
	for i := len(sp.Tasks) - 1; i >= 0; i-- {
		t := sp.Tasks[i]
		if before > 0 && int64(t.Number) >= before || state != "" && t.State != state {
			continue
		}
		if int64(len(items)) == limit {
			more = true
			break
		}
		items = append(items, viewTask(sp, t, true))
	}
	next := ""
	if more {
		next = strconv.Itoa(items[len(items)-1].Number)
	}
	confirmations := taskConfirmationsOf(sp)
	out := struct {
		Space    string       `json:"space"`
		Settings taskSettings `json:"settings"`
		page
	}{sp.Name, taskSettings{confirmations, "members", 4, 3, 24}, newPage(items, next, more)}
	return http.StatusOK, out, nil
}

// nextAnswer is what next hands a KEY: the job (work, or stop when there
// is none), why, and the task.
type nextAnswer struct {
	Space  string    `json:"space"`
	Job    string    `json:"job"`
	Why    string    `json:"why"`
	Task   *taskView `json:"task"`
	Notice string    `json:"notice"`
}

// The twin's words for why next chose the job it chose.
const (
	whyHeld = "You hold this task and have not finished it: finish it first."
	whyOpen = "This is the lowest open task, and now you hold it."
	whyNone = "No task here is open to you now."
)

func (c *call) taskNext() (int, any, *apiError) {
	sp, e := c.spaceForAs("writer", "TASK_DENIED")
	if e != nil {
		return 0, nil, e
	}
	out := nextAnswer{Space: sp.Name, Job: "stop", Why: whyNone, Notice: peerNotice}
	var pick *task
	for _, t := range sp.Tasks {
		if t.State == "claimed" && t.Assignee == c.p.PeerID {
			pick, out.Why = t, whyHeld // the caller's own unfinished task comes back first
			break
		}
	}
	if pick == nil {
		for _, t := range sp.Tasks {
			if t.State == "open" {
				pick, out.Why = t, whyOpen
				t.State, t.Assignee, t.Accepted = "claimed", c.p.PeerID, c.a.now()
				break
			}
		}
	}
	if pick != nil {
		v := viewTask(sp, pick, true)
		out.Job, out.Task = "work", &v
	}
	return http.StatusOK, out, nil
}
