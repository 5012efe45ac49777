package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/mcp-playground/playground/backend/store"
)

// Reasons the next start gives for what a stopped playground left going.
const (
	sessionInterruptedReason = "the playground stopped while the session was open"
	signInInterruptedReason  = "The playground stopped before this sign-in finished. Sign in again from the server's page."
)

// endInterrupted ends what the last run of the dashboard left going when
// it stopped without shutting down (a crash, kill -9): live sessions are
// closed, collection runs end as interrupted with the results stored by
// then, running sign-ins fail. Each says so on its page, and none is
// polled for progress any more. It runs at start, before anything new can
// begin.
func endInterrupted(ctx context.Context, db *store.DB, log *slog.Logger) error {
	now := time.Now()
	sessions, err := db.EndLiveSessions(ctx, sessionInterruptedReason, now)
	if err != nil {
		return err
	}
	runs, err := db.EndInterruptedRuns(ctx, now)
	if err != nil {
		return err
	}
	flows, err := db.EndRunningOAuthFlows(ctx, signInInterruptedReason, now)
	if err != nil {
		return err
	}
	if sessions+runs+flows > 0 {
		log.Info("ended what the last run left going", "sessions", sessions, "collection_runs", runs, "sign_ins", flows)
	}
	return nil
}
