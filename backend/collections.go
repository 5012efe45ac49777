package backend

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcp-playground/playground/backend/jsondiff"
	"github.com/mcp-playground/playground/mcpclient"
)

// Collection is a named, ordered set of saved example calls.
type Collection struct {
	ID          int64
	Name        string
	Description string
	Created     time.Time
	Examples    int // how many examples it holds (filled by listings)
}

// SnapshotKind says what an example expects: a result or a JSON-RPC error.
type SnapshotKind string

const (
	SnapshotResult SnapshotKind = "result"
	SnapshotError  SnapshotKind = "error"
)

// Example is one saved call and the answer it is expected to give.
type Example struct {
	ID           int64
	CollectionID int64
	Position     int // order within the collection, ascending
	Name         string
	Description  string
	Method       string
	// Params are the request's params, nil when it sends none.
	Params json.RawMessage
	// Snapshot is the expected result, or for SnapshotError the expected
	// JSON-RPC error object ({"code","message","data"}).
	SnapshotKind SnapshotKind
	Snapshot     json.RawMessage
	// Volatile are JSON Pointers (segments may be "*") that the comparison
	// with the snapshot ignores, such as timestamps and ids.
	Volatile []string
	// ExpectIsError is whether the result is expected to carry isError: true.
	ExpectIsError bool
	// Assertions are checked on every answer; with AssertionsOnly the
	// snapshot is not compared and they alone judge it.
	Assertions     []Assertion
	AssertionsOnly bool
	// Captures keep values of the answer as variables for later examples.
	Captures []Capture
	Created  time.Time
	// ServerID is the server it was saved from; 0 when it came from a
	// file or the server is gone.
	ServerID int64
}

// CollectionStore persists collections, their examples and their runs.
// Lookups of a missing thing return an ENotFound *Error; a duplicate name
// (a collection's, or an example's within its collection) an EConflict
// *Error with Fields["name"] set.
type CollectionStore interface {
	CreateCollection(ctx context.Context, c Collection) (Collection, error)
	ListCollections(ctx context.Context) ([]Collection, error)
	// ListCollectionsPage returns at most limit collections named after
	// after, by name.
	ListCollectionsPage(ctx context.Context, after string, limit int) ([]Collection, error)
	GetCollection(ctx context.Context, id int64) (Collection, error)
	// CollectionByName returns the collection named name, false when none is.
	CollectionByName(ctx context.Context, name string) (Collection, bool, error)
	// ImportCollection stores c with its examples (in order) and
	// environments in one transaction: all or nothing. A taken name is an
	// EConflict *Error.
	ImportCollection(ctx context.Context, c Collection, examples []Example, envs []Environment) (Collection, error)
	UpdateCollection(ctx context.Context, c Collection) error
	DeleteCollection(ctx context.Context, id int64) error

	// AddExample stores e (its ID and Position are ignored) after the
	// collection's last example.
	AddExample(ctx context.Context, e Example) (Example, error)
	ListExamples(ctx context.Context, collectionID int64) ([]Example, error)
	// ListExamplesPage returns at most limit examples placed after
	// afterPosition, in order.
	ListExamplesPage(ctx context.Context, collectionID int64, afterPosition, limit int) ([]Example, error)
	GetExample(ctx context.Context, collectionID, id int64) (Example, error)
	// UpdateExample changes the description, params and volatile paths of
	// e, found by e.CollectionID and e.ID.
	UpdateExample(ctx context.Context, e Example) error
	// SetExampleSnapshot replaces the snapshot (its kind, value and
	// ExpectIsError) of e, found by e.CollectionID and e.ID.
	SetExampleSnapshot(ctx context.Context, e Example) error
	// MoveExample swaps the example with its neighbour before (up) or
	// after it; at either end it does nothing.
	MoveExample(ctx context.Context, collectionID, id int64, up bool) error
	DeleteExample(ctx context.Context, collectionID, id int64) error

	RunStore
	EnvironmentStore
}

// Collections manages collections of saved examples and runs them.
type Collections struct {
	store    CollectionStore
	frames   FrameStore
	sessions SessionStore
	caller   Caller
	log      *slog.Logger

	stop    context.Context // ends the runs Start began; cancel ends it
	cancel  context.CancelFunc
	running sync.WaitGroup
}

// Caller sends a request on a live session, names its tools, says where
// the session sends and hides secret values in what it records; *Pool
// implements it.
type Caller interface {
	CallWith(ctx context.Context, sessionID int64, method string, params json.RawMessage, o CallOptions) (CallResult, error)
	Tool(ctx context.Context, sessionID int64, name string) (mcpclient.Tool, error)
	HideValues(sessionID int64, values []string)
	// Destinations are where the live session sessionID sends what it is
	// given (see Destinations); EConflict when it is not connected.
	Destinations(sessionID int64) ([]string, error)
}

// NewCollections returns the service. Examples are saved from the stored
// frames of frames; runs call through caller and name the server of the
// session from sessions; runs that Start began log their failures to log.
// Close it to stop those runs.
func NewCollections(store CollectionStore, frames FrameStore, sessions SessionStore, caller Caller, log *slog.Logger) *Collections {
	stop, cancel := context.WithCancel(context.Background())
	return &Collections{store: store, frames: frames, sessions: sessions, caller: caller, log: log, stop: stop, cancel: cancel}
}

// maxNameLen bounds collection and example names, in characters.
const maxNameLen = 100

// checkName trims name and returns it, or an EInvalid *Error for field.
func checkName(name, field, what string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", InvalidField(field, "Give the "+what+" a name.")
	case utf8.RuneCountInString(name) > maxNameLen:
		return "", InvalidField(field, "Keep the name under 100 characters.")
	case !Printable(name):
		return "", InvalidField(field, NotPrintable)
	}
	return name, nil
}

// Create makes an empty collection.
func (s *Collections) Create(ctx context.Context, name, description string) (Collection, error) {
	name, err := checkName(name, "name", "collection")
	if err != nil {
		return Collection{}, err
	}
	return s.store.CreateCollection(ctx, Collection{Name: name, Description: strings.TrimSpace(description), Created: time.Now()})
}

// List returns every collection, by name.
func (s *Collections) List(ctx context.Context) ([]Collection, error) {
	return s.store.ListCollections(ctx)
}

// Get returns a collection with its examples in order.
func (s *Collections) Get(ctx context.Context, id int64) (Collection, []Example, error) {
	c, err := s.store.GetCollection(ctx, id)
	if err != nil {
		return Collection{}, nil, err
	}
	ex, err := s.store.ListExamples(ctx, id)
	return c, ex, err
}

// Rename changes a collection's name and description.
func (s *Collections) Rename(ctx context.Context, id int64, name, description string) error {
	name, err := checkName(name, "name", "collection")
	if err != nil {
		return err
	}
	return s.store.UpdateCollection(ctx, Collection{ID: id, Name: name, Description: strings.TrimSpace(description)})
}

// Delete removes a collection with its examples and runs.
func (s *Collections) Delete(ctx context.Context, id int64) error {
	return s.store.DeleteCollection(ctx, id)
}

// SaveRequest says which recorded call to save, where and under which name.
type SaveRequest struct {
	// ResponseFrameID is the stored response whose request and answer
	// become the example.
	ResponseFrameID int64
	// CollectionID names an existing collection; when 0, NewCollection is
	// the name of the collection to use, made if it does not exist.
	CollectionID  int64
	NewCollection string
	Name          string
	Description   string
}

// Save stores a recorded call as an example: the request's method and
// params come from the stored request frame, the snapshot from the stored
// response (its result, or its JSON-RPC error). Bad input is an EInvalid
// *Error whose Fields name the form field.
func (s *Collections) Save(ctx context.Context, r SaveRequest) (Collection, Example, error) {
	name, err := checkName(r.Name, "name", "example")
	if err != nil {
		return Collection{}, Example{}, err
	}
	ex, err := s.exampleFromFrame(ctx, r.ResponseFrameID)
	if err != nil {
		return Collection{}, Example{}, err
	}
	col, err := s.collectionFor(ctx, r)
	if err != nil {
		return Collection{}, Example{}, err
	}
	ex.CollectionID, ex.Name, ex.Description, ex.Created = col.ID, name, strings.TrimSpace(r.Description), time.Now()
	if ex.ServerID, err = s.frameServer(ctx, r.ResponseFrameID); err != nil {
		return Collection{}, Example{}, err
	}
	ex, err = s.store.AddExample(ctx, ex)
	return col, ex, err
}

// SuggestedName is the name a new example saved from the stored response
// frameID starts with: the tool's or prompt's name for tools/call and
// prompts/get, the URI for resources/read, else the method.
func (s *Collections) SuggestedName(ctx context.Context, frameID int64) (string, error) {
	ex, err := s.exampleFromFrame(ctx, frameID)
	if err != nil {
		return "", err
	}
	var params struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(ex.Params, &params) // params that are no object name nothing
	name := ex.Method
	switch {
	case (ex.Method == "tools/call" || ex.Method == "prompts/get") && params.Name != "":
		name = params.Name
	case ex.Method == "resources/read" && params.URI != "":
		name = params.URI
	}
	if !Printable(name) || utf8.RuneCountInString(name) > maxNameLen {
		return ex.Method, nil
	}
	return name, nil
}

// frameServer is the server whose session recorded the frame, 0 when the
// server is gone.
func (s *Collections) frameServer(ctx context.Context, frameID int64) (int64, error) {
	f, err := s.frames.GetFrame(ctx, frameID)
	if err != nil {
		return 0, err
	}
	sess, err := s.sessions.GetSession(ctx, f.SessionID)
	if err != nil {
		return 0, err
	}
	return sess.ServerID, nil
}

func (s *Collections) collectionFor(ctx context.Context, r SaveRequest) (Collection, error) {
	if r.CollectionID != 0 {
		return s.store.GetCollection(ctx, r.CollectionID)
	}
	if strings.TrimSpace(r.NewCollection) == "" {
		return Collection{}, InvalidField("collection", "Pick a collection or name a new one.")
	}
	name, err := checkName(r.NewCollection, "collection", "collection")
	if err != nil {
		return Collection{}, err
	}
	c, ok, err := s.store.CollectionByName(ctx, name)
	if err != nil || ok {
		return c, err
	}
	return s.store.CreateCollection(ctx, Collection{Name: name, Created: time.Now()})
}

// exampleFromFrame builds the request and snapshot of an example from a
// stored response frame and the request it answers.
func (s *Collections) exampleFromFrame(ctx context.Context, responseID int64) (Example, error) {
	notSaveable := Errorf(EInvalid, "Only a recorded answer to a request can be saved.")
	resp, err := s.frames.GetFrame(ctx, responseID)
	if err != nil {
		return Example{}, err
	}
	if resp.Direction != mcpclient.Inbound || (resp.RPCType != RPCResult && resp.RPCType != RPCError) || resp.PairID == 0 {
		return Example{}, notSaveable
	}
	req, err := s.frames.GetFrame(ctx, resp.PairID)
	if err != nil {
		return Example{}, err
	}
	// The recorder classified both frames; only the members it does not
	// store (params, the result or error itself) are read here.
	request, err := mcpclient.DecodeEnvelope(req.Body)
	if err != nil || req.Method == "" {
		return Example{}, notSaveable
	}
	answer, err := mcpclient.DecodeEnvelope(resp.Body)
	if err != nil {
		return Example{}, notSaveable
	}
	ex := Example{Method: req.Method, Params: StripMeta(request.Params), Volatile: []string{}}
	if resp.RPCType == RPCError {
		ex.SnapshotKind, ex.Snapshot = SnapshotError, answer.Error
	} else {
		ex.SnapshotKind, ex.Snapshot, ex.ExpectIsError = SnapshotResult, answer.Result, resp.ToolError
	}
	if len(ex.Snapshot) == 0 {
		return Example{}, notSaveable
	}
	return ex, nil
}

// StripMeta drops the params' _meta, which the client fills per request
// (progress tokens, protocol version); nil or "null" params become nil.
func StripMeta(params json.RawMessage) json.RawMessage {
	if len(params) == 0 || bytes.Equal(bytes.TrimSpace(params), []byte("null")) {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(params, &obj) != nil {
		return params
	}
	if _, ok := obj["_meta"]; !ok {
		return params
	}
	delete(obj, "_meta")
	b, err := json.Marshal(obj)
	if err != nil {
		return params
	}
	return b
}

// ExampleEdit is what the collection page may change in an example.
type ExampleEdit struct {
	Description    string
	Params         string // JSON object text; "" sends no params
	Volatile       string // JSON Pointers, one a line
	Assertions     []Assertion
	AssertionsOnly bool
	Captures       []Capture
}

// UpdateExample applies an edit. Bad input is an EInvalid *Error whose
// Fields name "params", "volatile", "assertions" or "captures".
func (s *Collections) UpdateExample(ctx context.Context, collectionID, id int64, edit ExampleEdit) error {
	ex, err := s.store.GetExample(ctx, collectionID, id)
	if err != nil {
		return err
	}
	ex.Description = strings.TrimSpace(edit.Description)
	ex.Params = nil
	if p := strings.TrimSpace(edit.Params); p != "" {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(p), &obj) != nil {
			return InvalidField("params", "Params must be a JSON object (or empty).")
		}
		ex.Params = json.RawMessage(p)
	}
	ex.Volatile = []string{}
	for line := range strings.Lines(edit.Volatile) {
		p := strings.TrimSpace(line)
		if p == "" {
			continue
		}
		if err := checkVolatile(p); err != nil {
			return err
		}
		ex.Volatile = append(ex.Volatile, p)
	}
	ex.Assertions, ex.AssertionsOnly, ex.Captures = edit.Assertions, edit.AssertionsOnly, edit.Captures
	if err := checkExampleChecks(ex); err != nil {
		return err
	}
	return s.store.UpdateExample(ctx, ex)
}

// checkVolatile reports a volatile path that is not a JSON Pointer as an
// EInvalid *Error for the field "volatile".
func checkVolatile(p string) error {
	if !jsondiff.ValidPointer(p) {
		return InvalidField("volatile", fmt.Sprintf("The volatile path %q is not a JSON Pointer: it starts with /, as in /content/*/text.", p))
	}
	return nil
}

// checkExampleChecks reports the first bad assertion or capture of ex as
// an EInvalid *Error for the field "assertions" or "captures".
func checkExampleChecks(ex Example) error {
	for i, a := range ex.Assertions {
		if err := a.Validate(); err != nil {
			return InvalidField("assertions", fmt.Sprintf("Assertion %d: %v.", i+1, err))
		}
	}
	if ex.AssertionsOnly && len(ex.Assertions) == 0 {
		return InvalidField("assertions", "Without comparing the snapshot, an example needs at least one assertion.")
	}
	for i, c := range ex.Captures {
		if err := c.Validate(); err != nil {
			return InvalidField("captures", fmt.Sprintf("Capture %d: %v.", i+1, err))
		}
	}
	return nil
}

// MoveExample moves an example one place up or down.
func (s *Collections) MoveExample(ctx context.Context, collectionID, id int64, up bool) error {
	return s.store.MoveExample(ctx, collectionID, id, up)
}

// DeleteExample removes an example; past run results keep its name.
func (s *Collections) DeleteExample(ctx context.Context, collectionID, id int64) error {
	return s.store.DeleteExample(ctx, collectionID, id)
}

// Collection returns one collection without its examples.
func (s *Collections) Collection(ctx context.Context, id int64) (Collection, error) {
	return s.store.GetCollection(ctx, id)
}
