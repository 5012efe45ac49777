package backend

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-playground/playground/mcpclient"
)

// AppsExtension is the id of the MCP Apps extension (SEP-1865): a tool's
// _meta names a ui:// resource whose HTML the host renders as the tool's
// interactive view. AppMIMEType is the type of such a resource.
const (
	AppsExtension = "io.modelcontextprotocol/ui"
	AppMIMEType   = "text/html;profile=mcp-app"
)

// appsCapability is what the client declares under
// capabilities.extensions[AppsExtension], so that servers expose their UI.
var appsCapability = json.RawMessage(`{"mimeTypes":["` + AppMIMEType + `"]}`)

// toolUIMeta is the part of a tool's _meta that MCP Apps define. The flat
// "ui/resourceUri" key is the deprecated spelling of ui.resourceUri.
type toolUIMeta struct {
	UI struct {
		ResourceURI string   `json:"resourceUri"`
		Visibility  []string `json:"visibility"`
	} `json:"ui"`
	FlatResourceURI string `json:"ui/resourceUri"`
}

func uiMeta(t mcpclient.Tool) toolUIMeta {
	var m toolUIMeta
	if len(t.Meta) > 0 {
		_ = json.Unmarshal(t.Meta, &m) // a malformed _meta names no app
	}
	return m
}

// AppResourceURI returns the ui:// resource that the tool's _meta names
// (ui.resourceUri, else the deprecated "ui/resourceUri"), or "" when the
// tool has no app.
func AppResourceURI(t mcpclient.Tool) string {
	m := uiMeta(t)
	uri := m.UI.ResourceURI
	if uri == "" {
		uri = m.FlatResourceURI
	}
	if !strings.HasPrefix(uri, "ui://") {
		return ""
	}
	return uri
}

// CallableByApp reports whether an app may call the tool: its
// _meta.ui.visibility includes "app", or is absent (the default is
// ["model", "app"]).
func CallableByApp(t mcpclient.Tool) bool {
	v := uiMeta(t).UI.Visibility
	return v == nil || slices.Contains(v, "app")
}

// AppCSP is the network an app's resource declares it needs
// (_meta.ui.csp). Each list holds origins such as https://api.example.com
// or https://*.example.com.
type AppCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// AppResource is an app's HTML and the policy its resource declares.
type AppResource struct {
	URI  string
	HTML string
	CSP  AppCSP
	// Refused lists the declared CSP entries that are not plain origins
	// (they could smuggle other directives into the policy); they are
	// left out of CSP.
	Refused []string
}

// ReadAppResource reads an app's ui:// resource with resources/read on a
// live session, through the same recorded path as every call. It fails
// with an EInvalid *Error when the server's answer is not an app resource
// (no text or blob, another MIME type) and as Call does otherwise.
func (p *Pool) ReadAppResource(ctx context.Context, sessionID int64, uri string) (AppResource, error) {
	params, err := json.Marshal(mcpclient.ResourceParams{URI: uri})
	if err != nil {
		return AppResource{}, err
	}
	res, err := p.Call(ctx, sessionID, "resources/read", params)
	if err != nil {
		return AppResource{}, err
	}
	if res.Error != nil {
		return AppResource{}, Errorf(EInvalid, "Reading the app's resource %s failed: JSON-RPC error %d: %s", uri, res.Error.Code, res.Error.Message)
	}
	var body mcpclient.ReadResourceResult
	if err := json.Unmarshal(res.Result, &body); err != nil || len(body.Contents) == 0 {
		return AppResource{}, Errorf(EInvalid, "The server's answer for the app's resource %s holds no contents.", uri)
	}
	c := body.Contents[0]
	var meta struct {
		UI struct {
			CSP AppCSP `json:"csp"`
		} `json:"ui"`
	}
	if len(c.Meta) > 0 && json.Unmarshal(c.Meta, &meta) != nil {
		return AppResource{}, Errorf(EInvalid, "The server's answer for the app's resource %s holds no contents.", uri)
	}
	if mt := strings.ReplaceAll(strings.ToLower(c.MimeType), " ", ""); mt != AppMIMEType {
		return AppResource{}, Errorf(EInvalid, "The app's resource %s has type %q, not %s.", uri, c.MimeType, AppMIMEType)
	}
	html := c.Text
	if html == "" && c.Blob != "" {
		b, err := base64.StdEncoding.DecodeString(c.Blob)
		if err != nil {
			return AppResource{}, Errorf(EInvalid, "The app's resource %s has a blob that is not base64.", uri)
		}
		html = string(b)
	}
	if html == "" {
		return AppResource{}, Errorf(EInvalid, "The app's resource %s is empty.", uri)
	}
	app := AppResource{URI: uri, HTML: html}
	keep := func(list []string) []string {
		var out []string
		for _, d := range list {
			if cspOrigin().MatchString(d) {
				out = append(out, d)
			} else {
				app.Refused = append(app.Refused, d)
			}
		}
		return out
	}
	declared := meta.UI.CSP
	app.CSP = AppCSP{
		ConnectDomains:  keep(declared.ConnectDomains),
		ResourceDomains: keep(declared.ResourceDomains),
		FrameDomains:    keep(declared.FrameDomains),
		BaseURIDomains:  keep(declared.BaseURIDomains),
	}
	return app, nil
}

// cspOrigin matches what a declared CSP entry may be: a scheme, a host
// (optionally with a leading *. wildcard) and an optional port, nothing
// that a policy would read as another source or directive. It is compiled
// at first use: the largest of our regexps, it cost every start of the
// binary (playground call too) about 0.1 ms.
var cspOrigin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(https?|wss?)://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:([0-9]{1,5}|\*))?$`)
})
