package oauth

import (
	"context"
	"net/http"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// Rerun sends a recorded exchange of a server's flow once more and records
// the answer as a new step of the flow, marked as a re-run of the
// original: discovery and registration requests are sent as recorded; a
// code exchange is sent with its code and verifier still redacted (the
// authorization server's refusal is the point); a refresh uses the flow
// owner's current refresh token, stores the new token, and only that
// owner may re-run it; a client credentials request is sent with the
// client's current authentication (rerunClientCredentials). Browser steps (authorization, callback) cannot be
// re-run. It returns the flow.
func (o *Service) Rerun(ctx context.Context, user backend.User, serverID, stepID int64) (Flow, error) {
	step, err := o.store.OAuthStep(ctx, stepID)
	if err != nil {
		return Flow{}, err
	}
	flow, err := o.store.OAuthFlow(ctx, step.FlowID)
	if err != nil {
		return Flow{}, err
	}
	if flow.ServerID != serverID {
		return Flow{}, backend.Errorf(backend.ENotFound, "Step %d is not a step of this server's sign-ins.", stepID)
	}
	srv, err := o.servers.GetServer(ctx, serverID)
	if err != nil {
		return Flow{}, err
	}
	original := step.ID
	if step.RerunOf != 0 {
		original = step.RerunOf
	}
	rec := o.recorder(flow.ID, srv, original)
	for _, s := range flow.Steps {
		if s.Seq < step.Seq && s.RerunOf == 0 {
			rec.facts.learn(s, []byte(s.ResponseBody))
		}
	}
	switch step.Kind {
	case StepClientCredentials:
		if err := o.rerunClientCredentials(ctx, rec, srv, step); err != nil {
			return flow, err
		}
	case StepAuthorization, StepCallback:
		return flow, backend.Errorf(backend.EInvalid, "A browser step cannot be re-run; sign in again instead.")
	case StepRefresh:
		if flow.UserID != user.ID {
			return flow, backend.Errorf(backend.EForbidden, "Only %s can re-run the refresh of their own sign-in.", flow.UserName)
		}
		g, secret, ok, err := o.grant(ctx, serverID, user.ID)
		if err != nil {
			return flow, err
		}
		if !ok || g.UserID != user.ID {
			return flow, backend.Errorf(backend.EConflict, "You are not signed in to this server any more: sign in again.")
		}
		if _, err := o.refresh(ctx, srv, g, secret, flow.ID, original); err != nil {
			o.log.Info("a re-run refresh failed", "flow", flow.ID, "err", err)
		}
	default:
		if err := o.resend(ctx, rec, step); err != nil {
			return flow, err
		}
	}
	return o.store.OAuthFlow(ctx, flow.ID)
}

// resend sends a recorded request again through rec. Its redacted header
// values are left out; its body is sent as recorded.
func (o *Service) resend(ctx context.Context, rec *stepRecorder, step Step) error {
	ctx, cancel := context.WithTimeout(ctx, exchangeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, step.Method, step.URL, strings.NewReader(step.RequestBody))
	if err != nil {
		return backend.Errorf(backend.EInvalid, "The recorded request cannot be sent again: %v", err)
	}
	for name, values := range step.RequestHeader {
		if len(values) == 1 && values[0] == backend.RedactedValue || name == "Content-Length" {
			continue
		}
		req.Header[name] = values
	}
	resp, err := rec.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	return nil // a failed exchange is recorded in its step
}
