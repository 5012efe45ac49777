package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Era is a family of MCP protocol versions that share how a connection
// starts and how requests carry their context.
type Era string

const (
	// EraLegacy is the initialize handshake (versions 2024-11-05 through
	// 2025-11-25): a session, negotiated once; over HTTP an Mcp-Session-Id,
	// a standalone GET stream and resumable SSE streams; server-to-client
	// requests.
	EraLegacy Era = "legacy"
	// EraModern is per-request metadata (version 2026-07-28): no handshake;
	// every request carries its protocol version, client info and client
	// capabilities in _meta (and, over HTTP, in headers); server/discover;
	// server input arrives as input_required results.
	EraModern Era = "modern"
	// EraAuto probes the server the way the specification says: a modern
	// server/discover first, then the legacy handshake if the answer is not
	// a modern one (over HTTP, then the deprecated HTTP+SSE transport if the
	// endpoint refuses the handshake).
	EraAuto Era = "auto"
)

// modernVersions are the protocol versions of the modern era, newest first.
var modernVersions = []string{"2026-07-28"}

// ProtocolVersions returns every protocol version this client speaks,
// oldest first.
func ProtocolVersions() []string {
	return append(slices.Clone(supportedVersions), modernVersions...)
}

// RequestedEra is the era that Options with Era era and ProtocolVersion
// version ask for: era when set; otherwise EraModern for a modern version
// and EraLegacy for any other, "" included.
func RequestedEra(era Era, version string) Era {
	switch {
	case era != "":
		return era
	case VersionEra(version) == EraModern:
		return EraModern
	}
	return EraLegacy
}

// VersionEra returns the era of a protocol version this client speaks, or
// "" for any other string.
func VersionEra(version string) Era {
	switch {
	case slices.Contains(supportedVersions, version):
		return EraLegacy
	case slices.Contains(modernVersions, version):
		return EraModern
	}
	return ""
}

// Error codes of the modern era.
const (
	codeHeaderMismatch             = -32020
	codeMissingClientCapability    = -32021
	codeUnsupportedProtocolVersion = -32022
)

// Reserved _meta keys of the modern era.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// maxInputRounds bounds how many input_required results one Call answers
// before giving up.
const maxInputRounds = 32

// maxVersionRetries bounds how often one Call retries after
// UnsupportedProtocolVersion.
const maxVersionRetries = 2

// DiscoverResult is what a modern server answered to server/discover.
// Capabilities is kept raw, as in InitializeResult.
type DiscoverResult struct {
	SupportedVersions []string        `json:"supportedVersions"`
	Capabilities      json.RawMessage `json:"capabilities,omitempty"`
	Instructions      string          `json:"instructions,omitempty"`
	// ServerInfo comes from the result's _meta
	// ("io.modelcontextprotocol/serverInfo"), or from a serverInfo member
	// that some servers send instead.
	ServerInfo Implementation `json:"serverInfo"`
	// Raw is the whole result as received.
	Raw json.RawMessage `json:"-"`
}

// Era returns the era the connection speaks: EraLegacy or EraModern (never
// EraAuto: probing has settled it before Connect returns).
func (c *Client) Era() Era {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.era
}

// ProtocolVersion returns the protocol version in use: the one negotiated in
// initialize (legacy era), or the one every request carries (modern era,
// which may change when the server refuses it and names others).
func (c *Client) ProtocolVersion() string {
	return c.negotiatedVersion()
}

// Discovery returns what the server answered to server/discover, or nil
// when the connection is in the legacy era.
func (c *Client) Discovery() *DiscoverResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.discovery
}

func (c *Client) setEra(e Era, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.era = e
	c.protocolVersion = version
}

// isModern reports whether requests go out in the modern era.
func (c *Client) isModern() bool { return c.Era() == EraModern }

// isPending reports whether a call still waits for the response to id.
func (c *Client) isPending(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[id]
	return ok
}

// note records a client-side event (a decision, a retry, a fallback) in the
// tap as a transport frame.
func (c *Client) note(info *HTTPInfo, format string, args ...any) {
	c.tap(Inbound, KindTransport, []byte(fmt.Sprintf(format, args...)), info)
}

// start brings a new connection to the point where requests can be made,
// in the era Options.Era asks for: the initialize handshake, server/discover,
// or the probing that chooses between them.
func (c *Client) start(ctx context.Context) error {
	era := RequestedEra(c.opts.Era, c.opts.ProtocolVersion)
	switch era {
	case EraLegacy:
		if VersionEra(c.opts.ProtocolVersion) == EraModern {
			return fmt.Errorf("protocol version %s belongs to the modern era; the legacy era speaks %s",
				c.opts.ProtocolVersion, strings.Join(supportedVersions, ", "))
		}
		c.setEra(EraLegacy, "")
		return c.initialize(ctx, false)
	case EraModern:
		_, err := c.discover(ctx)
		return err
	case EraAuto:
		return c.probe(ctx)
	}
	return fmt.Errorf("unknown era %q: want legacy, modern or auto", era)
}

// preferredModernVersion is the version modern requests start with.
func (c *Client) preferredModernVersion() string {
	if VersionEra(c.opts.ProtocolVersion) == EraModern {
		return c.opts.ProtocolVersion
	}
	return modernVersions[0]
}

// discover switches the connection to the modern era and sends
// server/discover, within Options.InitializeTimeout. It returns the
// server's answer; an UnsupportedProtocolVersion answer has been retried
// already (see Call).
func (c *Client) discover(ctx context.Context) (*DiscoverResult, error) {
	c.setEra(EraModern, c.preferredModernVersion())
	ctx, cancel := context.WithTimeout(ctx, c.opts.InitializeTimeout)
	defer cancel()
	raw, err := c.Call(ctx, "server/discover", nil)
	if err != nil {
		return nil, exitedDuring("server/discover", err)
	}
	res, err := decodeDiscover(raw)
	if err != nil {
		return nil, err
	}
	version := c.ProtocolVersion()
	if !slices.Contains(res.SupportedVersions, version) {
		version = pickVersion(res.SupportedVersions, modernVersions, c.opts.ProtocolVersion)
		if version == "" {
			return nil, &NoModernVersionError{Supported: res.SupportedVersions}
		}
	}
	c.mu.Lock()
	c.protocolVersion = version
	c.discovery = res
	c.mu.Unlock()
	c.initRes = InitializeResult{
		ProtocolVersion: version,
		ServerInfo:      res.ServerInfo,
		Capabilities:    res.Capabilities,
		Instructions:    res.Instructions,
	}
	return res, nil
}

// NoModernVersionError reports a server/discover answer that names no
// modern version this client speaks (such as a stateful server that speaks
// only the legacy versions).
type NoModernVersionError struct {
	Supported []string // the versions the server named
}

func (e *NoModernVersionError) Error() string {
	return fmt.Sprintf("server/discover: the server supports %s, none of them a modern version this client speaks (%s); use era legacy or auto",
		strings.Join(e.Supported, ", "), strings.Join(modernVersions, ", "))
}

// errNotDiscoverResult reports a server/discover result that is not a
// DiscoverResult.
var errNotDiscoverResult = errors.New("server/discover: the result is not a DiscoverResult")

// decodeDiscover decodes a server/discover result. A result without
// supportedVersions is not a DiscoverResult.
func decodeDiscover(raw json.RawMessage) (*DiscoverResult, error) {
	var res DiscoverResult
	var extra struct {
		SupportedVersions json.RawMessage            `json:"supportedVersions"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%w (%v)", errNotDiscoverResult, err)
	}
	if err := json.Unmarshal(raw, &extra); err != nil || len(extra.SupportedVersions) == 0 || string(extra.SupportedVersions) == "null" {
		return nil, fmt.Errorf("%w (it has no supportedVersions)", errNotDiscoverResult)
	}
	if si, ok := extra.Meta[metaServerInfo]; ok {
		var impl Implementation
		if json.Unmarshal(si, &impl) == nil {
			res.ServerInfo = impl
		}
	}
	res.Raw = raw
	return &res, nil
}

// pickVersion chooses from offered (the server's list) the version to
// speak: preferred when offered and ours, else the first of ours (newest
// first) that is offered; "" when none is.
func pickVersion(offered, ours []string, preferred string) string {
	if slices.Contains(offered, preferred) && slices.Contains(ours, preferred) {
		return preferred
	}
	byNewest := slices.Clone(ours)
	slices.Sort(byNewest)
	slices.Reverse(byNewest)
	for _, v := range byNewest {
		if slices.Contains(offered, v) {
			return v
		}
	}
	return ""
}

// probe settles the era as the specification says a client that speaks
// both does: server/discover in the modern era first; a DiscoverResult or a
// recognized modern error means a modern server; anything else (another
// JSON-RPC error, an HTTP error status, no answer within
// Options.InitializeTimeout) means a legacy one, and the initialize
// handshake follows. Failures to reach the server at all are not answers
// and end the probe.
func (c *Client) probe(ctx context.Context) error {
	c.note(nil, "era auto: probing with server/discover (modern era)")
	_, err := c.discover(ctx)
	if err == nil {
		c.note(nil, "era auto: the server answered server/discover; speaking the modern era, version %s", c.ProtocolVersion())
		return nil
	}
	legacyVersion := c.opts.ProtocolVersion
	if VersionEra(legacyVersion) != EraLegacy {
		legacyVersion = defaultProtocolVersion
	}
	var rpcErr *RPCError
	var status *HTTPStatusError
	var noModern *NoModernVersionError
	switch {
	case errors.As(err, &noModern):
		v := pickVersion(noModern.Supported, supportedVersions, legacyVersion)
		if v == "" {
			return fmt.Errorf("era auto: %w", err)
		}
		legacyVersion = v
	case errors.As(err, &rpcErr) && rpcErr.Code == codeUnsupportedProtocolVersion:
		var data struct {
			Supported []string `json:"supported"`
		}
		_ = json.Unmarshal(rpcErr.Data, &data)
		v := pickVersion(data.Supported, supportedVersions, legacyVersion)
		if v == "" {
			return fmt.Errorf("era auto: the server speaks only %s: %w", strings.Join(data.Supported, ", "), err)
		}
		legacyVersion = v
	case errors.As(err, &rpcErr) && (rpcErr.Code == codeHeaderMismatch || rpcErr.Code == codeMissingClientCapability):
		return fmt.Errorf("era auto: the server is modern but refused server/discover: %w", err)
	case errors.As(err, &rpcErr), errors.As(err, &status), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, errNotDiscoverResult):
		// Not a modern answer: a legacy server.
	default:
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	c.note(nil, "era auto: server/discover got no modern answer (%v); falling back to initialize (legacy era)", err)
	c.opts.ProtocolVersion = legacyVersion
	c.setEra(EraLegacy, "")
	return c.initialize(ctx, false)
}

// overHTTP reports whether the connection uses Streamable HTTP.
func (c *Client) overHTTP() bool {
	_, ok := c.t.(*httpTransport)
	return ok
}
