package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/store"
)

// TestRestartEndsWhatAStopLeftGoing leaves in a real database file what a
// dashboard killed mid-work leaves (a collection run without its end, a
// sign-in still running), starts the dashboard on it, and checks that both
// are ended, say so on their pages, and that the run's page no longer
// polls for progress. When PLAYGROUND_SCREENSHOT_DIR is set, the run's and
// the collection's pages are saved there (run-interrupted.png,
// collection-run-interrupted.png).
func TestRestartEndsWhatAStopLeftGoing(t *testing.T) {
	bin := e2eBuildPlayground(t)
	db := filepath.Join(t.TempDir(), "playground.db")
	e2eServeDB(t, bin, db).stop(t) // the admin account and the schema

	ctx := context.Background()
	d, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	admin, _, err := d.UserByName(ctx, e2eAdmin)
	if err != nil {
		t.Fatal(err)
	}
	srvID, err := d.CreateServer(ctx, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:9/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.CreateCollection(ctx, collections.Collection{Name: "big", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := d.CreateRun(ctx, collections.Run{CollectionID: c.ID, ServerName: "remote", Started: time.Now(), Total: 3000})
	if err != nil {
		t.Fatal(err)
	}
	for i, outcome := range []collections.RunOutcome{collections.RunPass, collections.RunPass, collections.RunFail} {
		if err := d.AddRunResult(ctx, collections.RunResult{RunID: run.ID, ExampleName: fmt.Sprintf("ex%d", i), Outcome: outcome}); err != nil {
			t.Fatal(err)
		}
	}
	flowID, err := d.CreateOAuthFlow(ctx, oauth.Flow{ServerID: srvID, UserID: admin.ID, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	s := e2eServeDB(t, bin, db)
	page := e2eGet(t, fmt.Sprintf("%s/collections/%d/runs/%d", s.URL, c.ID, run.ID))
	for _, want := range []string{`data-testid="run-interrupted"`, "the playground stopped after 3 of 3000 examples", "2 passed, 1 failed"} {
		if !strings.Contains(page, want) {
			t.Errorf("the run's page lacks %q:\n%s", want, page)
		}
	}
	for _, never := range []string{"hx-trigger", "Running…"} {
		if strings.Contains(page, never) {
			t.Errorf("the interrupted run's page still has %q", never)
		}
	}
	list := e2eGet(t, fmt.Sprintf("%s/collections/%d", s.URL, c.ID))
	if !strings.Contains(list, "interrupted after 3 of 3000") || strings.Contains(list, `data-testid="run-row-running"`) {
		t.Errorf("the collection's page does not show the run interrupted:\n%s", list)
	}
	flow := e2eGet(t, fmt.Sprintf("%s/servers/%d/oauth/flows/%d", s.URL, srvID, flowID))
	if !strings.Contains(flow, `data-status="failed"`) || !strings.Contains(flow, "The playground stopped before this sign-in finished.") {
		t.Errorf("the sign-in's page does not say it was interrupted:\n%s", flow)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
		defer cancel()
		p := e2eOpenBrowser(t, ctx, e2eChromium(t))
		p.signIn(s)
		e2eNavigate(p, "open the run", fmt.Sprintf("%s/collections/%d/runs/%d", s.URL, c.ID, run.ID), `[data-testid="run-interrupted"]`)
		p.screenshot(dir, "run-interrupted", `[data-testid="run-interrupted"]`)
		e2eNavigate(p, "open the collection", fmt.Sprintf("%s/collections/%d", s.URL, c.ID), `[data-testid="run-row-interrupted"]`)
		p.screenshot(dir, "collection-run-interrupted", `[data-testid="run-row-interrupted"]`)
	}
	if !strings.Contains(s.Log.String(), `msg="ended what the last run left going" sessions=0 collection_runs=1 sign_ins=1`) {
		t.Errorf("the dashboard did not log what it ended:\n%s", s.Log.String())
	}
}
