package backend

import (
	"context"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

// ImportedFrame is one frame read from an export file: its time,
// direction, kind, JSON-RPC shape, body, HTTP details and id clash mark as
// they were recorded. Frame.ID, Frame.SessionID, Frame.PairID and
// Frame.ClashFrameID are the ids the file gives (a frame is named by its
// session and id there); the importer gives the stored frame new ones.
type ImportedFrame struct {
	Frame
	// ServerName is the server the file says the frame's session spoke
	// to, "" when it names none.
	ServerName string
	// ProtocolVersion is the protocol version the file says the frame's
	// session negotiated, "" when it gives none.
	ProtocolVersion string
	// Excerpt says the file holds only some of the session's frames (a
	// filtered session export or a history export).
	Excerpt bool
	// Line is the frame's line in the file, for error messages.
	Line int
}

// ExportLinter lints the frames of an export file in the order the file
// gives them: one lint.Linter for each session the file names, set up by
// the first frame of that session it sees (the file's protocol version
// and whether it is an excerpt). It is not safe for concurrent use.
type ExportLinter struct {
	linters map[int64]*lint.Linter
	// merged is what Merged returns; mixed says that two of the file's
	// sessions gave different versions.
	merged lint.Options
	mixed  bool
}

// NewExportLinter returns an ExportLinter that has seen no frame.
func NewExportLinter() *ExportLinter {
	return &ExportLinter{linters: map[int64]*lint.Linter{}}
}

// Lint returns the findings of in, the next frame of the file, as its
// session's linter judges it (nil when it has none).
func (el *ExportLinter) Lint(in ImportedFrame) []lint.Finding {
	l := el.linters[in.SessionID]
	if l == nil {
		o := lint.Options{Version: in.ProtocolVersion, Excerpt: in.Excerpt}
		l = lint.New(o)
		el.linters[in.SessionID] = l
		el.merge(o)
	}
	return l.Lint(LintFrameOf(in.Frame))
}

// Merged returns what one session holding every frame linted so far is
// to be linted by, as an import stores it (Session.ProtocolVersion and
// Session.Excerpt): the protocol version that the file's sessions give
// (each by its first frame, as Lint takes it), "" when none gives one or
// two give different ones; and that it is an excerpt when the first frame
// of one of its sessions says so or the frames are of several sessions,
// since several sessions' traffic is not one session's from its start.
func (el *ExportLinter) Merged() (protocolVersion string, excerpt bool) {
	return el.merged.Version, el.merged.Excerpt
}

// merge notes o, the options of a session of the file seen for the first
// time, in what Merged returns.
func (el *ExportLinter) merge(o lint.Options) {
	el.merged.Excerpt = el.merged.Excerpt || o.Excerpt || len(el.linters) > 1
	switch {
	case el.mixed || o.Version == "":
	case el.merged.Version == "":
		el.merged.Version = o.Version
	case el.merged.Version != o.Version:
		el.merged.Version, el.mixed = "", true
	}
}

// LintFrameOf is what a linter judges of f: its direction, kind, body
// and HTTP status and Content-Type.
func LintFrameOf(f Frame) lint.Frame {
	return lint.FrameOf(mcpclient.Frame{Direction: f.Direction, Kind: f.Kind, Body: f.Body, HTTP: f.HTTP})
}

// ImportWriter stores an imported session's frames within
// SessionImportStore.ImportSession's transaction.
type ImportWriter interface {
	// InsertFrames is FrameStore.InsertFrames within the transaction.
	InsertFrames(ctx context.Context, frames []Frame, exchanges []Exchange) error
}

// ImportedSession is what the frames of an export file say of the
// session they are imported into.
type ImportedSession struct {
	ServerName      string
	ProtocolVersion string
	Excerpt         bool
}

// SessionImportStore stores imported sessions.
type SessionImportStore interface {
	// ImportSession stores a new session in one transaction: it inserts s
	// (ServerID, Status and times as given), calls fill with the new
	// session's id and a writer of its frames, then sets the session's
	// server name, protocol version and excerpt mark to those fill returns
	// and its start and end times to those of its first and last frames,
	// and commits. When fill or a write fails, nothing is stored and its
	// error is returned.
	ImportSession(ctx context.Context, s Session, fill func(sessionID int64, w ImportWriter) (ImportedSession, error)) (int64, error)
}

// FrameIDReserver hands out frame ids that recording never takes;
// *Recorder is one.
type FrameIDReserver interface {
	ReserveFrameIDs(n int64) (first int64)
}

// SessionImporter stores export files as read-only sessions.
type SessionImporter struct {
	store SessionImportStore
	ids   FrameIDReserver
}

// NewSessionImporter returns an importer that stores sessions in store
// and takes frame ids from ids.
func NewSessionImporter(store SessionImportStore, ids FrameIDReserver) *SessionImporter {
	return &SessionImporter{store: store, ids: ids}
}

const (
	// importBatch is how many frames an import writes at a time.
	importBatch = 500
	// ImportedServerName is the server name of an imported session whose
	// file names none.
	ImportedServerName = "imported"
	// maxImportedServerNames bounds how many of a file's server names the
	// imported session's name lists.
	maxImportedServerNames = 4
)

// importedFrom is the close reason of an imported session.
const importedFrom = "imported"

// Import stores the frames that frames yields, in order, as a new session
// imported from the file named file at time at, and returns its id. The
// session is closed and read-only and belongs to no registered server
// (ServerID 0); its server name is the one the frames give, the names
// joined when they give several, or ImportedServerName. Frames keep their
// time, direction, kind, JSON-RPC shape, body, HTTP details and id clash
// mark, and get new ids; two frames the file pairs (a request and its
// response, both in the file) are paired again, with the time between them
// as latency. A clash mark names its other request by the new id when the
// file gave that request on an earlier line (as a session's export does),
// by none (0) otherwise. Whether a result is a tool's failure is decided
// again from its body, as the recorder decides it.
//
// frames yields an error for a line that is not a frame; Import then
// stores nothing and returns it. A file without frames, or a frame with a
// direction, kind or JSON-RPC type that no recording has (see
// ImportedFrame.Check), or one that repeats an earlier frame's session
// and id, is an EInvalid error, and nothing is stored either.
//
// Each frame is linted as it is stored (ExportLinter: one linter per
// session of the file, by the file's protocol version and excerpt mark),
// so that it keeps its findings as a recorded frame does; findings the
// file gives are not taken. The session keeps the version and excerpt
// mark that ExportLinter.Merged gives for the whole file, so that its
// frames are judged by them again wherever they are linted later (its
// export carries them).
func (im *SessionImporter) Import(ctx context.Context, file string, at time.Time, frames iter.Seq2[ImportedFrame, error]) (int64, error) {
	s := Session{ServerName: ImportedServerName, Status: SessionClosed, CloseReason: importedFrom, StartedAt: at, ImportedFrom: file, ImportedAt: at}
	return im.store.ImportSession(ctx, s, func(sessionID int64, w ImportWriter) (ImportedSession, error) {
		p := importPairs{sessionID: sessionID, seen: map[fileFrameID]int64{}, open: map[fileFrameID]Frame{}}
		linter := NewExportLinter()
		var batch []Frame
		var exchanges []Exchange
		var names []string
		n := 0
		for in, err := range frames {
			if err != nil {
				return ImportedSession{}, err
			}
			if err := in.Check(); err != nil {
				return ImportedSession{}, err
			}
			key := fileFrameID{in.SessionID, in.ID}
			if _, ok := p.seen[key]; ok {
				return ImportedSession{}, Errorf(EInvalid, "Line %d repeats frame %d of session %d.", in.Line, in.ID, in.SessionID)
			}
			f := in.Frame
			f.ID, f.SessionID, f.PairID, f.LatencyNS, f.BodySize = im.ids.ReserveFrameIDs(1), sessionID, 0, 0, 0
			f.ToolError, f.ClashFrameID, f.Findings = importedToolError(f), 0, linter.Lint(in)
			if f.Clash != "" {
				f.ClashFrameID = p.seen[fileFrameID{in.SessionID, in.ClashFrameID}]
			}
			p.seen[key] = f.ID
			if e, ok := p.link(in, f); ok {
				exchanges = append(exchanges, e)
			}
			if in.ServerName != "" && !slices.Contains(names, in.ServerName) && len(names) <= maxImportedServerNames {
				names = append(names, in.ServerName)
			}
			batch = append(batch, f)
			n++
			if len(batch) == importBatch {
				if err := w.InsertFrames(ctx, batch, exchanges); err != nil {
					return ImportedSession{}, err
				}
				batch, exchanges = batch[:0], exchanges[:0]
			}
		}
		if n == 0 {
			return ImportedSession{}, Errorf(EInvalid, "The file holds no frames.")
		}
		if err := w.InsertFrames(ctx, batch, exchanges); err != nil {
			return ImportedSession{}, err
		}
		version, excerpt := linter.Merged()
		return ImportedSession{ServerName: importedServerName(names), ProtocolVersion: version, Excerpt: excerpt}, nil
	})
}

// importedToolError decides, as the recorder does, whether an imported
// frame is a tool's failure: a file's say is not taken for it.
func importedToolError(f Frame) bool {
	if f.RPCType != RPCResult {
		return false
	}
	env, err := mcpclient.DecodeEnvelope(f.Body)
	return err == nil && mcpclient.IsToolError(env.Result)
}

// fileFrameID names a frame as the file does.
type fileFrameID struct{ session, id int64 }

// importPairs pairs imported frames again as they arrive.
type importPairs struct {
	sessionID int64
	// seen maps the file ids of the frames already read to their new ids.
	seen map[fileFrameID]int64
	// open holds, by their file ids, the frames already read whose
	// partner has not come yet, with their new ids.
	open map[fileFrameID]Frame
}

// link notes in, stored as f, and returns the exchange that pairs it with
// its partner when that came before it.
func (p importPairs) link(in ImportedFrame, f Frame) (Exchange, bool) {
	if in.PairID == 0 {
		return Exchange{}, false
	}
	partner, ok := p.open[fileFrameID{in.SessionID, in.PairID}]
	if !ok {
		p.open[fileFrameID{in.SessionID, in.ID}] = f
		return Exchange{}, false
	}
	delete(p.open, fileFrameID{in.SessionID, in.PairID})
	req, resp := partner, f
	if f.RPCType == RPCRequest {
		req, resp = f, partner
	}
	if req.RPCType != RPCRequest || resp.RPCType == RPCRequest {
		return Exchange{}, false
	}
	return Exchange{RequestFrameID: req.ID, ResponseFrameID: resp.ID, SessionID: p.sessionID, Method: req.Method,
		LatencyNS: resp.Time.Sub(req.Time).Nanoseconds()}, true
}

// Check returns an EInvalid error, naming in's line, when in lacks a
// field that a recording gives every frame or gives one a value that no
// recording has.
func (in ImportedFrame) Check() error {
	switch in.Direction {
	case mcpclient.Outbound, mcpclient.Inbound, mcpclient.Stderr:
	default:
		return Errorf(EInvalid, "Line %d: the direction %q is not out, in or stderr.", in.Line, in.Direction)
	}
	switch in.Kind {
	case mcpclient.KindMessage, mcpclient.KindParseError, mcpclient.KindLog, mcpclient.KindTransport:
	default:
		return Errorf(EInvalid, "Line %d: the kind %q is not message, parse-error, log or transport.", in.Line, in.Kind)
	}
	switch in.RPCType {
	case "", RPCRequest, RPCNotification, RPCResult, RPCError:
	default:
		return Errorf(EInvalid, "Line %d: the rpcType %q is not request, notification, result or error.", in.Line, in.RPCType)
	}
	if in.Time.IsZero() {
		return Errorf(EInvalid, "Line %d: the frame has no time.", in.Line)
	}
	if !Printable(in.ServerName) {
		return Errorf(EInvalid, "Line %d: the server name %q is not printable text.", in.Line, in.ServerName)
	}
	if in.ID <= 0 {
		return Errorf(EInvalid, "Line %d: the frame has no id.", in.Line)
	}
	switch in.Clash {
	case "", ClashDuplicate, ClashAmbiguous:
	default:
		return Errorf(EInvalid, "Line %d: the idClash %q is not %s or %s.", in.Line, in.Clash, ClashDuplicate, ClashAmbiguous)
	}
	if in.RPCID != "" && !isRPCID([]byte(in.RPCID)) {
		return Errorf(EInvalid, "Line %d: the rpcId %s is not a JSON-RPC id, which is a string or a number.", in.Line, Cut(in.RPCID, 40))
	}
	return nil
}

// importedServerName is the server name of a session imported from a file
// that names names.
func importedServerName(names []string) string {
	switch {
	case len(names) == 0:
		return ImportedServerName
	case len(names) > maxImportedServerNames:
		return strings.Join(names[:maxImportedServerNames], ", ") + " and others"
	}
	return strings.Join(names, ", ")
}
