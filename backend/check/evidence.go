package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// Flusher is the recorder, as Recorded needs it.
type Flusher interface {
	// Flush waits until every frame recorded before the call is stored.
	Flush(ctx context.Context) error
}

// FrameLister reads stored frames, as backend.FrameStore does.
type FrameLister interface {
	ListFrames(ctx context.Context, q backend.FrameQuery) ([]backend.Frame, error)
}

// StoredFrames returns the Frames of session sessionID, which rec
// records into store.
func StoredFrames(rec Flusher, store FrameLister, sessionID int64) Frames {
	return storedFrames{rec, store, sessionID, 0}
}

// StoredFramesAfter is StoredFrames for the frames after frame afterID
// only: those of a run on a session that carried traffic before it.
func StoredFramesAfter(rec Flusher, store FrameLister, sessionID, afterID int64) Frames {
	return storedFrames{rec, store, sessionID, afterID}
}

type storedFrames struct {
	rec       Flusher
	store     FrameLister
	sessionID int64
	afterID   int64
}

const (
	// framePage is how many frames Recorded reads at a time.
	framePage = 500
	// maxFrames bounds the frames Recorded reads: a run makes a few
	// dozen, but the session may have more (a chatty server).
	maxFrames = 20000
	// bodyPreview is how much of each body Recorded reads.
	bodyPreview = excerptLen + 1
)

func (s storedFrames) Recorded(ctx context.Context) ([]backend.Frame, error) {
	if err := s.rec.Flush(ctx); err != nil {
		return nil, err
	}
	var out []backend.Frame
	q := backend.FrameQuery{SessionID: s.sessionID, AfterID: s.afterID, Limit: framePage, BodyPreview: bodyPreview}
	for len(out) < maxFrames {
		page, err := s.store.ListFrames(ctx, q)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < framePage {
			break
		}
		q.AfterID = page[len(page)-1].ID
	}
	return out, nil
}

// attachFrames gives each exchange of results its recorded frames: the
// request by its JSON-RPC id (or, for the handshake, its method), the
// response by the recorder's pairing.
func attachFrames(results []Result, frames []backend.Frame) {
	byID := make(map[int64]*backend.Frame, len(frames))
	requests := map[string]*backend.Frame{}
	firstOf := map[string]*backend.Frame{}
	for i := range frames {
		f := &frames[i]
		byID[f.ID] = f
		if f.Direction != mcpclient.Outbound || f.RPCType != backend.RPCRequest {
			continue
		}
		requests[f.RPCID] = f
		if firstOf[f.Method] == nil {
			firstOf[f.Method] = f
		}
	}
	for i := range results {
		for j := range results[i].Exchanges {
			ex := &results[i].Exchanges[j]
			req := requests[ex.rpcID]
			if ex.rpcID == "" {
				req = firstOf[ex.method]
			}
			if req == nil {
				continue
			}
			ex.Request = &FrameEvidence{FrameID: req.ID, Body: excerpt(req.Body)}
			if resp := byID[req.PairID]; req.PairID != 0 && resp != nil {
				ex.Response = &FrameEvidence{FrameID: resp.ID, Body: excerpt(resp.Body)}
			}
		}
	}
}

// judgeLint is the protocol-lint check: no error finding on a frame the
// server sent. The findings on the checks' own requests, several of which
// break the protocol on purpose, are listed but do not count.
func judgeLint(frames []backend.Frame) (Verdict, string, []Finding) {
	found := backend.FindingsOf(frames)
	errors, ours := 0, 0
	for _, f := range found {
		switch {
		case f.Direction == string(mcpclient.Outbound):
			ours++
		case f.Severity == backend.LintError:
			errors++
		}
	}
	note := ""
	if ours > 0 {
		note = fmt.Sprintf("; %s on the checks' own requests, which break rules on purpose, not counted", count(ours, "finding"))
	}
	if errors > 0 {
		var codes []string
		seen := map[string]bool{}
		for _, f := range found {
			if f.Direction != string(mcpclient.Outbound) && f.Severity == backend.LintError && !seen[f.Code] {
				seen[f.Code] = true
				codes = append(codes, f.Code)
			}
		}
		return Fail, fmt.Sprintf("%s on the server's frames (%s) in %s%s", count(errors, "error finding"), strings.Join(codes, ", "), count(len(frames), "frame"), note), found
	}
	return Pass, fmt.Sprintf("no error finding on the server's frames in %s%s", count(len(frames), "frame"), note), found
}
