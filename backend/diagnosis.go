package backend

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/doctor"
)

// The connection doctor's types (mcpclient/doctor): a failed connect's
// diagnosis, what was checked, and what to try next.
type (
	Diagnosis  = doctor.Diagnosis
	Finding    = doctor.Finding
	Suggestion = doctor.Suggestion
	// Fix is a change to a server's settings that a suggestion tries.
	Fix = doctor.Change
)

// ConnectError is a failed connect: its EUnavailable Error (the safe
// message, also the failed session's close reason) and the doctor's
// diagnosis, with the server's secrets redacted.
type ConnectError struct {
	Err       error // an *Error, or an *OAuthSignInNeededError wrapping one
	Diagnosis Diagnosis
}

func (e *ConnectError) Error() string { return e.Err.Error() }

func (e *ConnectError) Unwrap() error { return e.Err }

// DiagnosisOf returns the diagnosis that err carries, if it is a failed
// connect's.
func DiagnosisOf(err error) (Diagnosis, bool) {
	var ce *ConnectError
	if errors.As(err, &ce) {
		return ce.Diagnosis, true
	}
	return Diagnosis{}, false
}

// WithFix returns s with fix made, or an EInvalid *Error when the fix
// does not apply to s (a transport change to a stdio server, a path or a
// TLS change without a URL).
func (s Server) WithFix(fix Fix) (Server, error) {
	if !s.CanFix(fix) {
		return s, Errorf(EInvalid, "This change (%s) cannot be made to this server's settings.", fix.Label())
	}
	if fix.Transport != "" {
		s.Transport = Transport(fix.Transport)
	}
	if fix.Era != "" {
		s.Era = Era(fix.Era)
	}
	if fix.Path != "" {
		s.URL = doctor.WithPath(s.URL, fix.Path)
	}
	if fix.SkipTLSVerify {
		s.InsecureSkipVerify = true
	}
	return s, nil
}

// CanFix reports whether WithFix can make fix to s.
func (s Server) CanFix(fix Fix) bool {
	overHTTP := s.Transport == TransportHTTP || s.Transport == TransportSSE
	switch {
	case fix.SkipTLSVerify && (!overHTTP || !strings.HasPrefix(s.URL, "https://")):
		return false
	case fix.Transport != "" && (!overHTTP || (fix.Transport != "http" && fix.Transport != "sse")):
		return false
	case fix.Path != "" && (!overHTTP || !strings.HasPrefix(fix.Path, "/")):
		return false
	case fix.Era != "" && fix.Era != "legacy" && fix.Era != "modern" && fix.Era != "auto":
		return false
	}
	return fix != Fix{}
}

// diagnosisBudget bounds the doctor's probes after a failed connect.
const diagnosisBudget = 6 * time.Second

// Diagnose runs the connection doctor on connectErr, the error of a failed
// connect to srv in its era, and hides srv's secrets in what it says
// (Redactor). It probes for up to 6 s, even when ctx is done already (as
// it is when the connect timed out).
func Diagnose(ctx context.Context, srv Server, connectErr error) Diagnosis {
	redact := NewRedactor(srv).Text
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), diagnosisBudget)
	defer cancel()
	d := doctor.Diagnose(ctx, srv.Target(), mcpclient.Era(srv.Era), connectErr)
	d.Summary = redact(d.Summary)
	for i := range d.Findings {
		d.Findings[i].Result = redact(d.Findings[i].Result)
	}
	for i := range d.Suggestions {
		d.Suggestions[i].Text = redact(d.Suggestions[i].Text)
	}
	return d
}

// ParseFix reads a fix from a form's fields; unknown values are kept for
// CanFix to refuse.
func ParseFix(transport, era, path string, skipTLSVerify bool) Fix {
	return Fix{Transport: mcpclient.Transport(transport), Era: mcpclient.Era(era), Path: path, SkipTLSVerify: skipTLSVerify}
}
