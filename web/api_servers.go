package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The API's servers: /api/v1/servers.

// apiServer is a server as the API shows it. Env and header values may be
// secrets, so only their names are listed; the URL and the proxy are
// redacted.
type apiServer struct {
	ID         int64          `json:"id"`
	Name       string         `json:"name"`
	Transport  string         `json:"transport"`
	Era        string         `json:"era"`
	Command    string         `json:"command,omitempty"`
	Args       []string       `json:"args,omitempty"`
	EnvNames   []string       `json:"envNames,omitempty"`
	Dir        string         `json:"dir,omitempty"`
	URL        string         `json:"url,omitempty"`
	HeaderKeys []string       `json:"headerNames,omitempty"`
	CACert     string         `json:"caCert,omitempty"`
	Insecure   bool           `json:"insecureSkipVerify,omitempty"`
	Proxy      string         `json:"proxy,omitempty"`
	Roots      []backend.Root `json:"roots,omitempty"`
	CreatedAt  time.Time      `json:"createdAt"`
}

func apiServerOf(s backend.Server) apiServer {
	out := apiServer{ID: s.ID, Name: s.Name, Transport: string(s.Transport), Era: string(s.Era), Command: s.Command, Args: s.Args,
		Dir: s.Dir, URL: backend.RedactURL(s.URL), CACert: s.CACertPEM, Insecure: s.InsecureSkipVerify, Proxy: backend.RedactURL(s.Proxy),
		Roots: s.Roots, CreatedAt: s.CreatedAt}
	for k := range s.Env {
		out.EnvNames = append(out.EnvNames, k)
	}
	for k := range s.Headers {
		out.HeaderKeys = append(out.HeaderKeys, k)
	}
	return out
}
func (s *Server) apiListServers(c echo.Context) error {
	servers, err := s.deps.Registry.List(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]apiServer, len(servers))
	for i, srv := range servers {
		out[i] = apiServerOf(srv)
	}
	return c.JSON(http.StatusOK, out)
}

type apiServerInput struct {
	Name      string            `json:"name"`
	Transport string            `json:"transport"`
	Era       string            `json:"era"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	Dir       string            `json:"dir"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	CACert    string            `json:"caCert"`
	Insecure  bool              `json:"insecureSkipVerify"`
	Proxy     string            `json:"proxy"`
	Roots     []backend.Root    `json:"roots"`
}

func (s *Server) apiCreateServer(c echo.Context) error {
	var in apiServerInput
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	srv := backend.Server{Name: in.Name, Transport: backend.Transport(in.Transport), Era: backend.Era(in.Era), Command: in.Command, Args: in.Args,
		Env: in.Env, Dir: in.Dir, URL: in.URL, Headers: in.Headers, CACertPEM: in.CACert, InsecureSkipVerify: in.Insecure, Proxy: in.Proxy,
		Roots: in.Roots}
	if err := mayManageServer(c, srv.Transport); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := s.deps.Registry.Create(ctx, srv)
	if err != nil {
		return err
	}
	if srv, err = s.deps.Registry.Get(ctx, id); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, apiServerOf(srv))
}
