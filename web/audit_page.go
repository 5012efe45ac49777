package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/views"
)

// auditDate is the format of the audit page's from and to dates.
const auditDate = "2006-01-02"

// auditFilterOf reads the audit page's filter form from the query: person,
// action (a prefix), free text, from and to (dates, both included, in the
// dashboard's time zone) and before (the keyset of the Older link).
func auditFilterOf(c echo.Context) (views.AuditFilterForm, audit.Filter, map[string]string) {
	form := views.AuditFilterForm{Actor: c.QueryParam("actor"), Action: c.QueryParam("action"), Text: c.QueryParam("q"),
		From: c.QueryParam("from"), To: c.QueryParam("to")}
	f := audit.Filter{Actor: form.Actor, Action: form.Action, Text: form.Text}
	errs := map[string]string{}
	if form.From != "" {
		t, err := time.ParseInLocation(auditDate, form.From, time.Local)
		if err != nil {
			errs["from"] = "Give a date as YYYY-MM-DD."
		}
		f.Since = t
	}
	if form.To != "" {
		t, err := time.ParseInLocation(auditDate, form.To, time.Local)
		if err != nil {
			errs["to"] = "Give a date as YYYY-MM-DD."
		}
		f.Until = t.AddDate(0, 0, 1)
	}
	if before, err := strconv.ParseInt(c.QueryParam("before"), 10, 64); err == nil && before > 0 {
		f.Before = before
	}
	if len(errs) > 0 {
		return form, audit.Filter{}, errs
	}
	return form, f, nil
}

// query is the filter as URL query parameters, without paging.
func auditQuery(form views.AuditFilterForm) url.Values {
	q := url.Values{}
	for name, v := range map[string]string{"actor": form.Actor, "action": form.Action, "q": form.Text, "from": form.From, "to": form.To} {
		if v != "" {
			q.Set(name, v)
		}
	}
	return q
}

// showAudit shows one page of the audit log, newest first, filtered as
// the query says, with a link to the next older page and to the export of
// every event the filter selects.
func (s *Server) showAudit(c echo.Context) error {
	ctx := c.Request().Context()
	form, f, errs := auditFilterOf(c)
	v := views.AuditView{Filter: form, Errors: errs, Actions: knownAuditActions()}
	q := auditQuery(form)
	v.ExportURL = "/audit/export"
	if len(q) > 0 {
		v.ExportURL += "?" + q.Encode()
	}
	users, err := s.deps.Accounts.ListUsers(ctx)
	if err != nil {
		return err
	}
	for _, u := range users {
		v.People = append(v.People, u.Name)
	}
	status := http.StatusOK
	if errs != nil {
		status = http.StatusUnprocessableEntity
	} else {
		p, err := s.deps.Audit.Page(ctx, f)
		if err != nil {
			return err
		}
		v.Events = p.Events
		if p.Older != 0 {
			q.Set("before", strconv.FormatInt(p.Older, 10))
			v.OlderURL = "/audit?" + q.Encode()
		}
	}
	return render(c, status, views.AuditPage(page(c, "Audit log"), v))
}

// knownAuditActions lists every action the dashboard records, sorted, as
// suggestions for the action filter.
func knownAuditActions() []string {
	actions := []string{"signin.failed"}
	for _, a := range auditActions {
		actions = append(actions, a)
	}
	for _, a := range requestMethodActions {
		actions = append(actions, a)
	}
	slices.Sort(actions)
	return slices.Compact(actions)
}

// auditLine is an audit event as one line of the NDJSON export.
type auditLine struct {
	ID        int64           `json:"id"`
	At        time.Time       `json:"at"`
	ActorID   int64           `json:"actorId,omitempty"`
	ActorName string          `json:"actor"`
	Via       string          `json:"via"`
	Client    string          `json:"client"`
	Action    string          `json:"action"`
	Target    string          `json:"target"`
	Details   json.RawMessage `json:"details"`
	Outcome   string          `json:"outcome"`
}

// exportAudit sends every event the filter selects (as showAudit reads
// it, all pages), newest first, as NDJSON, reading the log a page at a
// time.
func (s *Server) exportAudit(c echo.Context) error {
	_, f, errs := auditFilterOf(c)
	if errs != nil {
		return backend.Errorf(backend.EInvalid, "Give the from and to dates as YYYY-MM-DD.")
	}
	started := false
	var enc *json.Encoder
	start := func() {
		startExport(c, "audit-"+time.Now().UTC().Format("20060102-150405")+".ndjson")
		enc, started = newExportEncoder(c.Response()), true
	}
	err := s.deps.Audit.Each(c.Request().Context(), f, func(e audit.Event) error {
		if !started {
			start()
		}
		return enc.Encode(auditLine{ID: e.ID, At: e.At.UTC(), ActorID: e.ActorID, ActorName: e.ActorName, Via: e.Via,
			Client: e.Client, Action: e.Action, Target: e.Target, Details: e.Details, Outcome: e.Outcome})
	})
	switch {
	case err != nil && !started:
		return err
	case err != nil:
		s.deps.Log.Error("audit export cut short", "err", err)
	case !started:
		start() // nothing selected: an empty file
	}
	return nil
}
