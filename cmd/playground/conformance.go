package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// conformanceTimeout bounds one conformance-client run; the harness gives
// each scenario 30 seconds.
const conformanceTimeout = 25 * time.Second

// conformanceConfig is what `playground conformance-client` is told by the
// official conformance harness (MCP_CONFORMANCE_* variables and the server
// URL as the last argument) and by its own flags.
type conformanceConfig struct {
	URL      string
	Scenario string
	Version  string          // protocol version the scenario runs at
	Era      mcpclient.Era   // "" derives it from Version
	Context  json.RawMessage // MCP_CONFORMANCE_CONTEXT, if any
	Trace    bool
	// LintOut, when set, is the file the protocol lint's findings on the
	// run's traffic go to, one JSON object a line.
	LintOut string
}

func parseConformanceConfig(args []string, getenv func(string) string, stderr io.Writer) (conformanceConfig, error) {
	fs := flag.NewFlagSet("conformance-client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: playground conformance-client [flags] URL\n\n"+
			"The client the official MCP conformance suite runs (conformance client --command \"playground conformance-client\").\n"+
			"It reads MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and MCP_CONFORMANCE_CONTEXT.")
		fs.PrintDefaults()
	}
	cfg := conformanceConfig{
		Scenario: getenv("MCP_CONFORMANCE_SCENARIO"),
		Version:  envOr(getenv, "MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25"),
	}
	era := fs.String("era", "", "legacy, modern or auto (default: the era of MCP_CONFORMANCE_PROTOCOL_VERSION)")
	fs.BoolVar(&cfg.Trace, "trace", false, "print every frame to stderr")
	fs.StringVar(&cfg.LintOut, "lint-out", "", "write the protocol lint's findings on the run's traffic to `FILE`, one JSON object a line (the run's outcome does not depend on them)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return cfg, errors.New("conformance-client: the server URL is missing")
	}
	cfg.URL = fs.Arg(fs.NArg() - 1)
	cfg.Era = mcpclient.Era(*era)
	switch cfg.Era {
	case "":
		cfg.Era = mcpclient.VersionEra(cfg.Version)
		if cfg.Era == "" {
			return cfg, fmt.Errorf("conformance-client: unknown protocol version %q", cfg.Version)
		}
	case mcpclient.EraLegacy, mcpclient.EraModern, mcpclient.EraAuto:
	default:
		return cfg, fmt.Errorf("conformance-client: --era %q: want legacy, modern or auto", *era)
	}
	if c := getenv("MCP_CONFORMANCE_CONTEXT"); c != "" {
		if !json.Valid([]byte(c)) {
			return cfg, errors.New("conformance-client: MCP_CONFORMANCE_CONTEXT is not JSON")
		}
		cfg.Context = json.RawMessage(c)
	}
	return cfg, nil
}

// runConformanceClient connects to the scenario's server with the same
// mcpclient code every other path uses, signing in when the server asks
// (with the credentials conformanceCredentials picks from the scenario
// context), and exercises what the server offers:
// it lists tools and calls each (with the arguments the scenario context
// names, else with placeholder values for the required ones; a tool whose
// inputSchema refers to another document is listed only), reads every
// resource and gets every prompt the server declares, and answers
// elicitation (accepting, with the schema's defaults), sampling and roots.
// Any failed request fails the run.
func runConformanceClient(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := parseConformanceConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, conformanceTimeout)
	defer cancel()
	cc := &conformanceClient{cfg: cfg, log: stderr}
	opts := mcpclient.Options{
		ClientInfo:      mcpclient.Implementation{Name: "mcp-playground-conformance", Version: version},
		ProtocolVersion: cfg.Version,
		Era:             cfg.Era,
		Handler:         cc,
		// The handshake includes signing in, which takes a scenario's
		// authorization server several requests: only the run's deadline
		// bounds it.
		InitializeTimeout: conformanceTimeout,
	}
	if cfg.Trace {
		var mu sync.Mutex
		opts.Tap = func(f mcpclient.Frame) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, "%s %s %s %s\n", f.Time.Format("15:04:05.000"), f.Direction, f.Kind, f.Body)
		}
	}
	if cfg.LintOut != "" {
		linter := newTapLinter()
		opts.Tap = linter.tap(opts.Tap)
		defer func() {
			_, found := linter.result()
			if err := writeLintOut(cfg.LintOut, found); err != nil {
				fmt.Fprintf(stderr, "conformance-client: %v\n", err)
			}
		}()
	}
	creds, err := conformanceCredentials(cfg.Context, cfg.URL)
	if err != nil {
		return fmt.Errorf("conformance-client %s: %w", cfg.Scenario, err)
	}
	httpCfg := mcpclient.HTTPConfig{URL: cfg.URL, Credentials: creds}
	c, err := mcpclient.Dial(ctx, mcpclient.Target{Transport: mcpclient.TransportHTTP, HTTP: httpCfg}, opts)
	if err != nil {
		return fmt.Errorf("conformance-client %s: connect: %w", cfg.Scenario, err)
	}
	cc.setClient(c)
	fmt.Fprintf(stderr, "connected: era %s, protocol version %s\n", c.Era(), c.ProtocolVersion())
	runErr := cc.exercise(ctx)
	if err := c.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("close: %w", err)
	}
	if runErr != nil {
		return fmt.Errorf("conformance-client %s: %w", cfg.Scenario, runErr)
	}
	return nil
}

// conformanceClient drives one scenario. It is the connection's Handler.
type conformanceClient struct {
	cfg conformanceConfig
	log io.Writer

	mu        sync.Mutex
	c         *mcpclient.Client
	tools     []mcpclient.Tool
	sideCalls int // tools called from within an input request
}

func (cc *conformanceClient) setClient(c *mcpclient.Client) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	cc.c = c
}

func (cc *conformanceClient) client() *mcpclient.Client {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.c
}

// exercise lists and uses everything the server offers.
func (cc *conformanceClient) exercise(ctx context.Context) error {
	c := cc.client()
	tools, err := c.ListTools(ctx)
	if err != nil {
		return err
	}
	cc.mu.Lock()
	cc.tools = tools
	cc.mu.Unlock()
	var errs []error
	for _, tool := range tools {
		if ref := externalRef(tool.InputSchema); ref != "" {
			fmt.Fprintf(cc.log, "tools/call %s skipped: its inputSchema keeps $ref %q, which is not fetched, so no arguments are built\n", tool.Name, ref)
			continue
		}
		args, err := cc.arguments(tool, tools)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		res, err := c.CallTool(ctx, tool.Name, args)
		if err != nil {
			errs = append(errs, fmt.Errorf("tools/call %s: %w", tool.Name, err))
			continue
		}
		fmt.Fprintf(cc.log, "tools/call %s: isError=%v\n", tool.Name, res.IsError)
	}
	caps := c.InitializeResult().Capabilities
	if mcpclient.HasCapability(caps, "resources") {
		resources, err := c.ListResources(ctx)
		errs = append(errs, err)
		for _, r := range resources {
			_, err := c.ReadResource(ctx, r.URI)
			errs = append(errs, err)
		}
	}
	if mcpclient.HasCapability(caps, "prompts") {
		prompts, err := c.ListPrompts(ctx)
		errs = append(errs, err)
		for _, p := range prompts {
			_, err := c.GetPrompt(ctx, p.Name, nil)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// arguments returns the arguments to call tool with: those the scenario
// context names for it, the focal tool's inputSchema for the JSON Schema
// echo tool, else placeholders for the required properties.
func (cc *conformanceClient) arguments(tool mcpclient.Tool, tools []mcpclient.Tool) (json.RawMessage, error) {
	var ctxCalls struct {
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCalls"`
	}
	_ = json.Unmarshal(cc.cfg.Context, &ctxCalls)
	for _, call := range ctxCalls.ToolCalls {
		if call.Name == tool.Name {
			return call.Arguments, nil
		}
	}
	if tool.Name == "json_schema_echo" {
		for _, t := range tools {
			if t.Name != tool.Name && len(t.InputSchema) > 0 {
				return json.Marshal(map[string]json.RawMessage{"schema": t.InputSchema})
			}
		}
	}
	return placeholderArguments(tool.InputSchema), nil
}

// externalRef returns a "$ref" of schema that points outside the schema
// itself (anything but a "#" fragment), or "" when there is none; of several
// it returns the least. A client must not fetch such a reference on its own
// (SEP-2106), so the conformance client does not call a tool whose arguments
// it could only build from one.
func externalRef(schema json.RawMessage) string {
	var v any
	if json.Unmarshal(schema, &v) != nil {
		return ""
	}
	var refs []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if ref, ok := e.(string); ok && k == "$ref" && !strings.HasPrefix(ref, "#") {
					refs = append(refs, ref)
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	if len(refs) == 0 {
		return ""
	}
	return slices.Min(refs)
}

// placeholderArguments builds an arguments object with a value of the
// right type for each required property of schema.
func placeholderArguments(schema json.RawMessage) json.RawMessage {
	var s struct {
		Properties map[string]struct {
			Type    any             `json:"type"`
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	args := map[string]json.RawMessage{}
	for _, name := range s.Required {
		p := s.Properties[name]
		if p.Default != nil {
			args[name] = p.Default
			continue
		}
		args[name] = placeholder(p.Type)
	}
	b, _ := json.Marshal(args)
	return b
}

// placeholder returns a value of a JSON Schema type.
func placeholder(typ any) json.RawMessage {
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
	}
	switch typ {
	case "string":
		return json.RawMessage(`"conformance"`)
	case "integer", "number":
		return json.RawMessage(`1`)
	case "boolean":
		return json.RawMessage(`true`)
	case "array":
		return json.RawMessage(`[]`)
	case "object":
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(`null`)
}

// Capabilities declares sampling, elicitation (form and URL) and roots.
func (cc *conformanceClient) Capabilities() json.RawMessage {
	return mcpclient.ClientCapabilities{
		Sampling:    &mcpclient.SamplingCapability{},
		Elicitation: mcpclient.BothElicitModes(),
		Roots:       &mcpclient.RootsCapability{ListChanged: true},
	}.JSON()
}

// conformanceSample is the conformance client's answer to every sampling
// request.
var conformanceSample = mcpclient.CreateMessageResult{
	Message:    mcpclient.SamplingMessage{Role: "assistant", Content: []mcpclient.SamplingBlock{{Type: "text", Text: "Paris"}}},
	Model:      "mcp-playground-conformance",
	StopReason: "endTurn",
}

// conformanceRoots is the conformance client's answer to roots/list.
var conformanceRoots = mcpclient.ListRootsResult{Roots: []mcpclient.Root{{URI: "file:///tmp/mcp-playground-conformance", Name: "conformance"}}}

// Handle answers the server's requests: elicitation is accepted (form mode
// with each property's default, or a placeholder), sampling gets a canned
// assistant message, roots/list one root. During the request-state scenario
// the first elicitation also calls the unrelated tool, so that a request
// made between two rounds of another is seen to carry none of its state.
func (cc *conformanceClient) Handle(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	fmt.Fprintf(cc.log, "server asks %s: %s\n", method, params)
	switch method {
	case mcpclient.MethodElicit:
		cc.sideCall(ctx)
		return json.Marshal(elicitationAnswer(params))
	case mcpclient.MethodSample:
		return json.Marshal(conformanceSample)
	case mcpclient.MethodRootsList:
		return json.Marshal(conformanceRoots)
	}
	return nil, &mcpclient.RPCError{Code: -32601, Message: "Method not found"}
}

// sideCall calls test_mrtr_unrelated once, if the server lists it.
func (cc *conformanceClient) sideCall(ctx context.Context) {
	cc.mu.Lock()
	c := cc.c
	found := slices.ContainsFunc(cc.tools, func(t mcpclient.Tool) bool { return t.Name == "test_mrtr_unrelated" })
	if !found || cc.sideCalls > 0 || c == nil {
		cc.mu.Unlock()
		return
	}
	cc.sideCalls++
	cc.mu.Unlock()
	if _, err := c.CallTool(ctx, "test_mrtr_unrelated", json.RawMessage(`{}`)); err != nil {
		fmt.Fprintf(cc.log, "tools/call test_mrtr_unrelated (between rounds): %v\n", err)
	}
}

// elicitationAnswer accepts an elicitation: URL mode with no content, form
// mode with every property of the requested schema filled with its default
// or a placeholder of its type.
func elicitationAnswer(params json.RawMessage) mcpclient.ElicitResult {
	var p mcpclient.ElicitParams
	_ = json.Unmarshal(params, &p)
	if p.URLMode() {
		return mcpclient.ElicitResult{Action: mcpclient.ElicitAccept}
	}
	var schema struct {
		Properties map[string]struct {
			Type    any             `json:"type"`
			Default json.RawMessage `json:"default"`
			Enum    []any           `json:"enum"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(p.RequestedSchema, &schema)
	content := map[string]json.RawMessage{}
	for name, prop := range schema.Properties {
		switch {
		case prop.Default != nil:
			content[name] = prop.Default
		case len(prop.Enum) > 0:
			content[name], _ = json.Marshal(prop.Enum[0])
		default:
			if v := placeholder(prop.Type); string(v) != "null" {
				content[name] = v
			}
		}
	}
	b, _ := json.Marshal(content)
	return mcpclient.ElicitResult{Action: mcpclient.ElicitAccept, Content: b}
}

// writeLintOut writes findings to the file path, one JSON object a line.
func writeLintOut(path string, found []lintedFinding) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, f := range found {
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o600)
}
