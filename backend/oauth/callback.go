package oauth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcp-playground/playground/backend"
)

// Callback is what the authorization server's redirect brought back
// to the dashboard's callback.
type Callback struct {
	URL              string // the callback URL as requested, query included
	State            string
	Code             string
	Iss              string
	Error            string
	ErrorDescription string
}

// await makes a sign-in findable by the state of its authorization request.
func (o *Service) await(state string, s *signIn) {
	o.mu.Lock()
	o.pending[state] = s
	o.mu.Unlock()
}

// forget drops a sign-in that ended from those awaiting a callback.
func (o *Service) forget(s *signIn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for state, p := range o.pending {
		if p == s {
			delete(o.pending, state)
		}
	}
}

// Complete hands the authorization server's answer to the sign-in whose
// state it carries and waits until that sign-in has ended (or ctx ends),
// returning its flow. The state is single-use and bound to the person who
// started the sign-in: someone else's callback with it is refused
// (EForbidden) and leaves the sign-in waiting. An unknown state is
// ENotFound. A refusal by the authorization server is no error here: the
// flow fails, and its page says why.
func (o *Service) Complete(ctx context.Context, userID int64, cb Callback) (Flow, error) {
	o.mu.Lock()
	s := o.pending[cb.State]
	switch {
	case s == nil || cb.State == "":
		o.mu.Unlock()
		return Flow{}, backend.Errorf(backend.ENotFound, "This sign-in is not in progress: it finished, timed out, or the playground restarted. Sign in again from the server's page.")
	case s.userID != userID:
		o.mu.Unlock()
		return Flow{}, backend.Errorf(backend.EForbidden, "This sign-in was started by someone else; it can only be finished in their browser.")
	}
	delete(o.pending, cb.State)
	o.mu.Unlock()

	step := Step{FlowID: s.flowID, Kind: StepCallback, Method: http.MethodGet, URL: RedactURL(cb.URL), At: time.Now(),
		Checks: callbackChecks(cb)}
	step.Title = stepTitle(step.Kind)
	if _, err := o.store.AddOAuthStep(context.WithoutCancel(ctx), step); err != nil {
		o.log.Error("OAuth step not recorded", "flow", s.flowID, "err", err)
	}
	answer := callbackAnswer{result: &auth.AuthorizationResult{Code: cb.Code, State: cb.State, Iss: cb.Iss}}
	if cb.Error != "" {
		answer = callbackAnswer{err: errors.New("the authorization server refused: " + strings.TrimSpace(cb.Error+": "+cb.ErrorDescription))}
	}
	s.answer <- answer
	select {
	case <-s.done:
	case <-ctx.Done():
	}
	return o.store.OAuthFlow(context.WithoutCancel(ctx), s.flowID)
}

func callbackChecks(cb Callback) []Check {
	checks := []Check{
		{Name: "state matches the sign-in", OK: true},
		{Name: "An authorization code came back", OK: cb.Code != "" && cb.Error == "", Detail: strings.TrimSpace(cb.Error + " " + cb.ErrorDescription)},
	}
	if cb.Iss != "" {
		checks = append(checks, Check{Name: "iss is given (RFC 9207)", OK: true, Detail: cb.Iss})
	}
	return checks
}
