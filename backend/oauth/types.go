package oauth

import "time"

// StepKind names what one step of an OAuth sign-in did.
type StepKind string

const (
	// StepChallenge is the MCP server's refusal of a request without
	// credentials (401 with WWW-Authenticate).
	StepChallenge StepKind = "challenge"
	// StepResourceMetadata fetches the protected resource metadata
	// (RFC 9728).
	StepResourceMetadata StepKind = "resource-metadata"
	// StepServerMetadata fetches the authorization server metadata
	// (RFC 8414 or OpenID discovery).
	StepServerMetadata StepKind = "server-metadata"
	// StepRegistration registers the client (RFC 7591).
	StepRegistration StepKind = "registration"
	// StepAuthorization sends the person's browser to the
	// authorization endpoint.
	StepAuthorization StepKind = "authorization"
	// StepCallback is the authorization server's redirect back to the
	// playground's callback, with the code or an error.
	StepCallback StepKind = "callback"
	// StepToken exchanges the authorization code for tokens.
	StepToken StepKind = "token"
	// StepRefresh exchanges a refresh token for a new access token.
	StepRefresh StepKind = "refresh"
	// StepClientCredentials obtains a token as the playground's own
	// client (the client credentials grant), without a person.
	StepClientCredentials StepKind = "client-credentials"
	// StepOther is any other HTTP exchange of the flow.
	StepOther StepKind = "other"
)

// Check is one thing verified about a step, such as "issuer matches
// the metadata URL" or "PKCE S256 supported".
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Step is one step of a sign-in as the debugger shows it: the HTTP
// exchange (or browser redirect) with its request and response, secrets
// (client secrets, codes, verifiers, tokens) redacted, and what was
// checked about it.
type Step struct {
	ID     int64
	FlowID int64
	Seq    int // order within the flow, from 1
	Kind   StepKind
	Title  string // plain words, such as "Authorization server metadata"

	Method         string
	URL            string
	RequestHeader  map[string][]string
	RequestBody    string
	Status         int // 0 when no response came
	ResponseHeader map[string][]string
	ResponseBody   string
	Err            string // why the exchange failed, if it did

	Checks  []Check
	Elapsed time.Duration
	At      time.Time
	// RerunOf is the step this one repeats, when a person re-ran a step;
	// 0 for the steps of the sign-in itself.
	RerunOf int64
}

// FlowStatus is where a sign-in stands.
type FlowStatus string

const (
	FlowRunning   FlowStatus = "running"
	FlowSucceeded FlowStatus = "succeeded"
	FlowFailed    FlowStatus = "failed"
)

// Flow is one sign-in of a person to a server's authorization
// server, with its steps in order.
type Flow struct {
	ID        int64
	ServerID  int64
	UserID    int64
	UserName  string
	Issuer    string // "" until the authorization server is known
	Status    FlowStatus
	Err       string // why it failed, in plain words
	StartedAt time.Time
	EndedAt   time.Time // zero while running
	Steps     []Step
}

// Grant is what a person's sign-in to a server obtained, without the
// tokens themselves (they stay sealed in the store).
type Grant struct {
	ServerID   int64
	UserID     int64
	UserName   string
	Issuer     string
	ClientID   string
	Scopes     []string
	ExpiresAt  time.Time // of the access token; zero when the server gave none
	HasRefresh bool
	// Shared grants are used by every team member who connects the server
	// without a grant of their own; only the grant's owner shares it.
	Shared    bool
	UpdatedAt time.Time
}
