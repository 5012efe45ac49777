package backend

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/mcp-playground/playground/backend/jsondiff"
)

// InterfaceListing is what a server offered in one session: every tool,
// resource, resource template and prompt, each item as canonical JSON
// (object keys sorted) and each list sorted by the item's key (Key). A
// server without a capability has an empty list for that kind.
type InterfaceListing struct {
	Tools             []json.RawMessage `json:"tools"`
	Resources         []json.RawMessage `json:"resources"`
	ResourceTemplates []json.RawMessage `json:"resourceTemplates"`
	Prompts           []json.RawMessage `json:"prompts"`
}

// InterfaceKind names one list of an InterfaceListing.
type InterfaceKind string

// The kinds of InterfaceListing, in the order pages show them.
const (
	KindTools             InterfaceKind = "tools"
	KindResources         InterfaceKind = "resources"
	KindResourceTemplates InterfaceKind = "resource templates"
	KindPrompts           InterfaceKind = "prompts"
)

// listingKind is one list of a listing: its kind, the list, and the
// member that identifies an item of it.
type listingKind struct {
	kind  InterfaceKind
	items *[]json.RawMessage
	key   string
}

// kinds returns l's lists in kind order.
func (l *InterfaceListing) kinds() []listingKind {
	return []listingKind{
		{KindTools, &l.Tools, "name"},
		{KindResources, &l.Resources, "uri"},
		{KindResourceTemplates, &l.ResourceTemplates, "uriTemplate"},
		{KindPrompts, &l.Prompts, "name"},
	}
}

// NewInterfaceListing builds a listing from the items as listed: each is
// marshalled to canonical JSON and each list sorted by item key. It fails
// only when an item does not marshal to a JSON object.
func NewInterfaceListing(tools []Tool, resources []Resource, templates []ResourceTemplate, prompts []Prompt) (InterfaceListing, error) {
	var l InterfaceListing
	var err error
	if l.Tools, err = canonicalItems(tools); err != nil {
		return l, err
	}
	if l.Resources, err = canonicalItems(resources); err != nil {
		return l, err
	}
	if l.ResourceTemplates, err = canonicalItems(templates); err != nil {
		return l, err
	}
	if l.Prompts, err = canonicalItems(prompts); err != nil {
		return l, err
	}
	for _, k := range l.kinds() {
		slices.SortStableFunc(*k.items, func(a, b json.RawMessage) int { return cmp.Compare(itemKey(a, k.key), itemKey(b, k.key)) })
	}
	return l, nil
}

func canonicalItems[T any](items []T) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(items))
	for _, it := range items {
		raw, err := json.Marshal(it)
		if err != nil {
			return nil, fmt.Errorf("drift: %w", err)
		}
		c, err := CanonicalJSON(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// CanonicalJSON re-encodes raw with object keys sorted and no spaces, so
// that equal values have equal bytes.
func CanonicalJSON(raw json.RawMessage) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	return out, nil
}

// itemKey returns the string member key of a JSON object, or "".
func itemKey(raw json.RawMessage, key string) string {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(members[key], &s)
	return s
}

// Encode returns the listing's canonical JSON and its SHA-256 in hex; two
// listings are the same interface exactly when their hashes are equal.
func (l InterfaceListing) Encode() (body []byte, hash string, err error) {
	for _, k := range l.kinds() {
		if *k.items == nil {
			*k.items = []json.RawMessage{}
		}
	}
	body, err = json.Marshal(l)
	if err != nil {
		return nil, "", fmt.Errorf("drift: %w", err)
	}
	sum := sha256.Sum256(body)
	return body, hex.EncodeToString(sum[:]), nil
}

// Revision is one stored interface of a server. Number counts the
// server's revisions from 1.
type Revision struct {
	ID        int64
	ServerID  int64
	Number    int64
	SessionID int64 // 0 when that session was deleted
	Hash      string
	Listing   InterfaceListing
	TakenAt   time.Time
}

// RevisionStore keeps servers' interface revisions.
type RevisionStore interface {
	// AddRevision stores listing (Encode gives body and hash) as the
	// server's next revision unless its latest revision has the same hash;
	// it reports whether it stored one and returns the latest revision.
	// The check and the insert are one transaction.
	AddRevision(ctx context.Context, serverID, sessionID int64, body []byte, hash string, at time.Time) (Revision, bool, error)
	// Revisions returns at most limit of the server's revisions whose
	// number is below before (0: the newest), newest first.
	Revisions(ctx context.Context, serverID, before int64, limit int) ([]Revision, error)
}

// ItemChange is one item that both revisions have but that differs: its
// key (name, URI or URI template) and the structural differences of its
// JSON, at JSON Pointers into the item ("/inputSchema/properties/city").
type ItemChange struct {
	Name    string
	Changes []jsondiff.Change
}

// KindDiff is what changed in one kind's list: the keys of added and
// removed items (sorted) and the changed items.
type KindDiff struct {
	Kind    InterfaceKind
	Added   []string
	Removed []string
	Changed []ItemChange
}

// Empty reports whether nothing changed in the kind.
func (d KindDiff) Empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 }

// DiffListings compares two listings kind by kind, matching items by key;
// it returns only the kinds in which something changed, in kind order.
func DiffListings(old, new InterfaceListing) []KindDiff {
	var out []KindDiff
	newKinds := new.kinds()
	for i, k := range old.kinds() {
		d := diffItems(*k.items, *newKinds[i].items, k.key)
		d.Kind = k.kind
		if !d.Empty() {
			out = append(out, d)
		}
	}
	return out
}

func diffItems(old, new []json.RawMessage, key string) KindDiff {
	var d KindDiff
	before := make(map[string]json.RawMessage, len(old))
	for _, it := range old {
		before[itemKey(it, key)] = it
	}
	after := make(map[string]bool, len(new))
	for _, it := range new {
		k := itemKey(it, key)
		after[k] = true
		prev, ok := before[k]
		if !ok {
			d.Added = append(d.Added, k)
			continue
		}
		changes, err := jsondiff.Diff(prev, it, nil)
		if err != nil { // not JSON: a listing's items always are
			changes = []jsondiff.Change{{Kind: jsondiff.Changed, Old: prev, New: it}}
		}
		if len(changes) > 0 {
			d.Changed = append(d.Changed, ItemChange{Name: k, Changes: changes})
		}
	}
	for _, it := range old {
		if k := itemKey(it, key); !after[k] {
			d.Removed = append(d.Removed, k)
		}
	}
	slices.Sort(d.Added)
	slices.Sort(d.Removed)
	slices.SortFunc(d.Changed, func(a, b ItemChange) int { return cmp.Compare(a.Name, b.Name) })
	return d
}

// RevisionChanges is a revision with what changed since the one before
// it. Previous is nil for a server's first revision.
type RevisionChanges struct {
	Revision Revision
	Previous *Revision
	Changes  []KindDiff
}

// maxRevisionPage bounds how many revisions a page lists.
const maxRevisionPage = 50

// ServerRevisions returns the server's newest revisions (at most 50), newest
// first, each with its changes since the revision before it.
func ServerRevisions(ctx context.Context, store RevisionStore, serverID int64) ([]RevisionChanges, error) {
	return serverRevisions(ctx, store, serverID, maxRevisionPage)
}

// LatestDrift returns the server's latest revision with its changes since
// the previous one; false when the server has no revision yet.
func LatestDrift(ctx context.Context, store RevisionStore, serverID int64) (RevisionChanges, bool, error) {
	revs, err := serverRevisions(ctx, store, serverID, 1)
	if err != nil || len(revs) == 0 {
		return RevisionChanges{}, false, err
	}
	return revs[0], true, nil
}

func serverRevisions(ctx context.Context, store RevisionStore, serverID int64, limit int) ([]RevisionChanges, error) {
	revs, err := store.Revisions(ctx, serverID, 0, limit+1)
	if err != nil {
		return nil, err
	}
	out := make([]RevisionChanges, 0, min(len(revs), limit))
	for i := 0; i < len(revs) && i < limit; i++ {
		rc := RevisionChanges{Revision: revs[i]}
		if i+1 < len(revs) {
			rc.Previous = &revs[i+1]
			rc.Changes = DiffListings(revs[i+1].Listing, revs[i].Listing)
		}
		out = append(out, rc)
	}
	return out, nil
}
