package doctor

import (
	"context"
	"errors"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

const (
	// budget bounds all the probes of one diagnosis.
	budget = 6 * time.Second
	// stepTimeout bounds one probe (a lookup, a dial, a request).
	stepTimeout = 2 * time.Second
	// bodyLimit bounds how much of a probe's response body is read.
	bodyLimit = 8 << 10
	// excerptLen bounds a body excerpt in a finding.
	excerptLen = 300
)

// Diagnose explains connectErr, the error with which connecting to target
// in era failed (era "" is read as mcpclient.RequestedEra reads it). It uses
// what the error already says and probes the target on the wire for the
// rest: over HTTP with the target's TLS, proxy and header settings (never
// its Credentials), with short timeouts and small body limits, within 6 s
// and ctx; a stdio command is looked up but never started again. It
// always returns a Diagnosis, whose Summary is never empty.
func Diagnose(ctx context.Context, target mcpclient.Target, era mcpclient.Era, connectErr error) Diagnosis {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	era = mcpclient.RequestedEra(era, "")
	var d Diagnosis
	if connectErr == nil {
		connectErr = errors.New("no error")
	}
	switch target.Transport {
	case mcpclient.TransportStdio:
		diagnoseStdio(&d, target.Stdio, era, connectErr)
	case mcpclient.TransportHTTP, mcpclient.TransportSSE:
		diagnoseHTTP(ctx, &d, target, era, connectErr)
	}
	if d.Summary == "" {
		d.Summary = "The connect failed: " + connectErr.Error()
	}
	return d
}

func (d *Diagnosis) find(check, result string) {
	d.Findings = append(d.Findings, Finding{Check: check, Result: result})
}

func (d *Diagnosis) suggest(text string, change *Change) {
	d.Suggestions = append(d.Suggestions, Suggestion{Text: text, Change: change})
}
