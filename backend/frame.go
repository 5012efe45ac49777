package backend

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

// RPCType is the JSON-RPC shape of a message frame.
type RPCType string

const (
	RPCRequest      RPCType = "request"
	RPCNotification RPCType = "notification"
	RPCResult       RPCType = "result"
	RPCError        RPCType = "error"
)

// Frame is one recorded unit of traffic of a session.
type Frame struct {
	ID        int64
	SessionID int64
	Time      time.Time
	Direction mcpclient.Direction
	Kind      mcpclient.FrameKind
	RPCType   RPCType // empty for frames that are not well-formed JSON-RPC messages
	// RPCID is the JSON-RPC id as its JSON text (`1`, `"a"`), empty for notifications and non-messages.
	RPCID string
	// Method is the JSON-RPC method of requests and notifications; for
	// responses, the method of the request they answer when known.
	Method string
	// Body is the frame's bytes, or only their first bytes when the frame
	// was read with FrameQuery.BodyPreview; BodySize then tells the whole
	// length.
	Body []byte
	// BodySize is the whole body's length as stored; frames that were never
	// stored (the recorder's) leave it 0 and hold their whole body.
	BodySize int
	// HTTP is the frame's HTTP exchange: as recorded, secrets included, on
	// the frames the recorder hands the store; as people are shown it on
	// every frame read or published.
	HTTP *mcpclient.HTTPInfo
	// Shown is set on the frames the recorder hands the store: what people
	// are shown of HTTP and where it hides secrets, worked out once as the
	// frame is classified (see ShowHTTP). It is nil on frames read back.
	Shown *ShownHTTP
	// PairID links a request to its response and a response to its request; 0 when unlinked.
	PairID int64
	// LatencyNS is response time minus request time on both frames of a linked pair.
	LatencyNS int64
	// ToolError is set on a result that says "isError": true, a tool's
	// failure (mcpclient.IsToolError), as the recorder decided it.
	ToolError bool
	// Clash says how the frame's JSON-RPC id clashed with a request still
	// pending; ClashFrameID is the frame of that other request (0 when an
	// imported file did not give it). See IDClash.
	Clash        IDClash
	ClashFrameID int64
	// Findings are what the protocol linter found wrong with the frame
	// as it was recorded (see lint.Linter), nil when nothing.
	Findings []lint.Finding
}

// IDClash is what the recorder noted about a frame whose JSON-RPC id was
// already taken by a pending request of the same direction.
type IDClash string

const (
	// ClashDuplicate marks a request sent while an earlier request with
	// the same id, ClashFrameID, was still unanswered. Both stay pending.
	ClashDuplicate IDClash = "duplicate-id"
	// ClashAmbiguous marks a response whose id names several pending
	// requests. It is paired with the oldest of them (PairID), since a
	// peer answers in order more often than not; ClashFrameID is the
	// newest one, still pending.
	ClashAmbiguous IDClash = "ambiguous-response"
)

// ClashNote describes the frame's id clash for people ("" when it has none).
func (f Frame) ClashNote() string {
	other := "another request" // an imported frame whose other request the file did not give
	if f.ClashFrameID != 0 {
		other = fmt.Sprintf("request %d", f.ClashFrameID)
	}
	switch f.Clash {
	case ClashDuplicate:
		return "duplicate id: " + other + " still pending"
	case ClashAmbiguous:
		if f.PairID == 0 { // imported without the request it was paired with
			return "ambiguous: the id names several pending requests; " + other + " still pending"
		}
		return fmt.Sprintf("ambiguous: the id names several pending requests; paired with the oldest, %d; %s still pending", f.PairID, other)
	}
	return ""
}

// Size is the length of the whole body.
func (f Frame) Size() int { return max(f.BodySize, len(f.Body)) }

// Partial reports whether Body holds only the first bytes of the body.
func (f Frame) Partial() bool { return f.BodySize > len(f.Body) }

// listChangeKinds maps the notifications that say a server changed a list
// to the list's kind.
var listChangeKinds = map[string]string{
	"notifications/tools/list_changed":     "tools",
	"notifications/prompts/list_changed":   "prompts",
	"notifications/resources/list_changed": "resources",
}

// ListChanged returns the kind of list (tools, prompts or resources) that
// the frame, a server's notification, says has changed; "" for any other
// frame.
func (f Frame) ListChanged() string {
	if f.Direction != mcpclient.Inbound || f.RPCType != RPCNotification {
		return ""
	}
	return listChangeKinds[f.Method]
}

// FrameQuery selects frames of one session. The result is always in id
// order, oldest first.
type FrameQuery struct {
	SessionID int64
	// AfterID and BeforeID bound the ids from below and above, exclusively;
	// 0 leaves that side open.
	AfterID, BeforeID int64
	// Newest selects the newest matching frames rather than the oldest.
	Newest bool
	// Limit caps the number of frames. 0 means no cap: only tests use it,
	// since a session's frames grow without bound.
	Limit int
	// MaxBodyBytes, when positive, ends the list once the bodies read add
	// up to at least this many bytes; the first frame is always included.
	MaxBodyBytes int
	// BodyPreview, when positive, reads only the first BodyPreview bytes of
	// each body, and never more than MaxBodyPreview (see Frame.BodySize).
	BodyPreview int
	// Filter keeps only the frames it matches.
	Filter FrameFilter
}

// FrameFilter selects frames as a person looking for something in a
// session's traffic does. The zero value matches every frame.
type FrameFilter struct {
	// Errors keeps JSON-RPC errors, malformed input, and tool errors
	// (Frame.ToolError).
	Errors bool
	// NoNotifications leaves notifications out.
	NoNotifications bool
	// Direction, when set, keeps the frames that went that way.
	Direction mcpclient.Direction
	// Text, when set, keeps the frames whose method or body holds it
	// (within the first MaxBodyPreview bytes of the body), case-sensitively.
	Text string
	// Findings keeps the frames the protocol linter found something wrong
	// with (Frame.Findings).
	Findings bool
}

// IsZero reports whether the filter matches every frame.
func (q FrameFilter) IsZero() bool { return q == FrameFilter{} }

// Matches reports whether f is one of the frames the filter keeps; the
// store applies the same rules in its queries.
func (q FrameFilter) Matches(f Frame) bool {
	body := f.Body[:min(len(f.Body), MaxBodyPreview)]
	switch {
	case q.Errors && !(f.RPCType == RPCError || f.Kind == mcpclient.KindParseError || f.ToolError):
		return false
	case q.NoNotifications && f.RPCType == RPCNotification:
		return false
	case q.Direction != "" && f.Direction != q.Direction:
		return false
	case q.Text != "" && !strings.Contains(f.Method, q.Text) && !bytes.Contains(body, []byte(q.Text)):
		return false
	case q.Findings && len(f.Findings) == 0:
		return false
	}
	return true
}

// MaxBodyPreview is the longest body preview a FrameStore reads without
// reading the whole body.
const MaxBodyPreview = 16 << 10

// Exchange links a request frame to the response frame that answered it.
type Exchange struct {
	RequestFrameID  int64
	ResponseFrameID int64
	SessionID       int64
	Method          string
	LatencyNS       int64
}

// FrameStore persists frames. The recorder is the only writer of frames and
// assigns their ids itself.
type FrameStore interface {
	// MaxFrameID returns the largest stored frame id, 0 when there is none.
	MaxFrameID(ctx context.Context) (int64, error)
	// InsertFrames stores frames (with their ids set, and their Shown)
	// and exchanges in one transaction.
	InsertFrames(ctx context.Context, frames []Frame, exchanges []Exchange) error
	// ListFrames returns the frames q selects, in id order, with pair
	// links and BodySize filled. ListFrames and GetFrame return HTTP info
	// as people are shown it (RedactHTTP).
	ListFrames(ctx context.Context, q FrameQuery) ([]Frame, error)
	// GetFrame returns one whole frame, or an ENotFound *Error.
	GetFrame(ctx context.Context, id int64) (Frame, error)
	// RevealFrameHTTP returns the HTTP info of frame id as it was
	// recorded, the secrets that the frames read above show redacted
	// (RedactHTTP) decrypted, nil when the frame has none, or an
	// ENotFound *Error. Frames read otherwise decrypt nothing: this is
	// for an admin who asked to see them.
	RevealFrameHTTP(ctx context.Context, id int64) (*HTTPInfo, error)
	// FrameHTTPSecrets says which places of frame id's HTTP exchange are
	// sealed and which were never recorded (SecretsOfHTTP), as noted when
	// the frame was stored, without decrypting anything; the zero
	// HTTPSecrets when the frame has no HTTP info, or an ENotFound *Error.
	// Of a frame stored before the note was kept, every place shown
	// redacted counts as sealed: only a reveal tells them apart.
	FrameHTTPSecrets(ctx context.Context, id int64) (HTTPSecrets, error)
	// CountFrames returns how many frames a session has.
	CountFrames(ctx context.Context, sessionID int64) (int, error)
	// CountFindings returns, for each of the sessions that has any, how
	// many protocol-lint findings its frames have, by severity.
	CountFindings(ctx context.Context, sessionIDs ...int64) (map[int64]FindingCount, error)
	// LintReport sums up the findings of the frames of every session of
	// server serverID by code, the worst severity first, then the most
	// frequent.
	LintReport(ctx context.Context, serverID int64) ([]LintCodeReport, error)
}

// FindingCount is how many protocol-lint findings of each severity some
// frames have.
type FindingCount struct {
	Errors, Warnings, Infos int
}

// Total is how many findings there are.
func (c FindingCount) Total() int { return c.Errors + c.Warnings + c.Infos }

// AddN counts n findings of severity sev.
func (c *FindingCount) AddN(sev LintSeverity, n int) {
	switch sev {
	case LintError:
		c.Errors += n
	case LintWarning:
		c.Warnings += n
	default:
		c.Infos += n
	}
}

// Add counts findings.
func (c *FindingCount) Add(findings ...LintFinding) {
	for _, f := range findings {
		c.AddN(f.Severity, 1)
	}
}
