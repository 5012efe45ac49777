package web_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// TestSecretsAreNotShown: the secrets of a server (URL userinfo and secret
// query parameters, secret header and env values) appear on no page and in
// no API answer, recorded frames included; the edit form shows them
// redacted, and saving it unchanged keeps them.
func TestSecretsAreNotShown(t *testing.T) {
	d := MustDashboard(t)
	ctx := context.Background()
	secrets := []string{"alice-url-user", "url-pw-secret", "query-key-secret", "header-secret-value", "env-secret-value"}
	target, err := url.Parse(MustSDKHTTPServer(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	target.User = url.UserPassword("alice-url-user", "url-pw-secret")
	target.RawQuery = "api_key=query-key-secret&page=2"
	secretURL := target.String()
	remote := d.MustAPIServer(t, map[string]any{"name": "remote", "transport": "http", "url": secretURL,
		"headers": map[string]string{"X-Api-Key": "header-secret-value", "Accept-Language": "en"}})
	local := d.MustAPIServer(t, map[string]any{"name": "local", "transport": "stdio", "command": os.Args[0],
		"env": map[string]string{"API_TOKEN": "env-secret-value", "MODE": "dev"}})
	if remote.URL != backend.RedactURL(secretURL) {
		t.Errorf("created server's URL = %q, want %q", remote.URL, backend.RedactURL(secretURL))
	}
	sess := d.MustAPISession(t, remote.ID)

	noSecrets := func(t *testing.T, what, body string) {
		t.Helper()
		body = html.UnescapeString(body)
		for _, s := range secrets {
			if strings.Contains(body, s) || strings.Contains(body, url.QueryEscape(s)) {
				t.Errorf("%s shows the secret %q", what, s)
			}
		}
	}
	for _, path := range []string{"/", fmt.Sprintf("/servers/%d", remote.ID), fmt.Sprintf("/servers/%d/edit", remote.ID),
		fmt.Sprintf("/servers/%d/edit", local.ID), fmt.Sprintf("/sessions/%d", sess.ID), "/api/v1/servers",
		fmt.Sprintf("/api/v1/sessions/%d/frames", sess.ID)} {
		r := d.get(t, path)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
		}
		noSecrets(t, "GET "+path, r.Body)
	}
	// The frames are committed by the recorder in the background.
	waitFrames(t, d, sess.ID, func(frames []apiFrame) bool { return len(frames) > 0 })
	if r := d.get(t, fmt.Sprintf("/sessions/%d", sess.ID)); !strings.Contains(html.UnescapeString(r.Body), backend.RedactURL(secretURL)) {
		t.Errorf("the session page does not show the frames' redacted URL %q", backend.RedactURL(secretURL))
	}
	if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", sess.ID), nil, nil); r.Status/100 != 2 {
		t.Fatalf("close session: %d %s", r.Status, r.Body)
	}

	fieldValue := func(body, name string) string {
		input := regexp.MustCompile(`name="` + name + `" value="([^"]*)"`).FindStringSubmatch(body)
		if input != nil {
			return html.UnescapeString(input[1])
		}
		area := regexp.MustCompile(`(?s)name="` + name + `"[^>]*>(.*?)</textarea>`).FindStringSubmatch(body)
		if area == nil {
			t.Fatalf("no field %q in the form", name)
		}
		return html.UnescapeString(area[1])
	}
	// edit submits the edit form of server id as shown, with changes.
	edit := func(t *testing.T, id int64, changes map[string]string) response {
		t.Helper()
		r := d.get(t, fmt.Sprintf("/servers/%d/edit", id))
		values := url.Values{"_csrf": {csrfField.FindStringSubmatch(r.Body)[1]}}
		for _, f := range []string{"name", "command", "args", "env", "dir", "url", "headers"} {
			values.Set(f, fieldValue(r.Body, f))
		}
		values.Set("transport", map[int64]string{remote.ID: "http", local.ID: "stdio"}[id])
		for k, v := range changes {
			values.Set(k, v)
		}
		return d.postForm(t, fmt.Sprintf("/servers/%d", id), values)
	}

	t.Run("the edit form shows secrets redacted", func(t *testing.T) {
		r := d.get(t, fmt.Sprintf("/servers/%d/edit", remote.ID))
		if got := fieldValue(r.Body, "url"); got != backend.RedactURL(secretURL) {
			t.Errorf("url field = %q, want %q", got, backend.RedactURL(secretURL))
		}
		if got := fieldValue(r.Body, "headers"); got != "Accept-Language: en\nX-Api-Key: [redacted]" {
			t.Errorf("headers field = %q", got)
		}
		r = d.get(t, fmt.Sprintf("/servers/%d/edit", local.ID))
		if got := fieldValue(r.Body, "env"); got != "API_TOKEN=[redacted]\nMODE=dev" {
			t.Errorf("env field = %q", got)
		}
	})

	t.Run("saving the form unchanged keeps the secrets", func(t *testing.T) {
		for _, id := range []int64{remote.ID, local.ID} {
			if r := edit(t, id, nil); r.Status != http.StatusSeeOther {
				t.Fatalf("saving server %d: %d %s", id, r.Status, r.Body)
			}
		}
		if s, err := d.reg.Get(ctx, remote.ID); err != nil || s.URL != secretURL || s.Headers["X-Api-Key"] != "header-secret-value" {
			t.Errorf("after saving, remote = %q %v, %v", s.URL, s.Headers, err)
		}
		if s, err := d.reg.Get(ctx, local.ID); err != nil || s.Env["API_TOKEN"] != "env-secret-value" || s.Env["MODE"] != "dev" {
			t.Errorf("after saving, local env = %v, %v", s.Env, err)
		}
	})

	t.Run("new values replace the secrets", func(t *testing.T) {
		newURL := strings.Replace(backend.RedactURL(secretURL), "REDACTED@", "new-pw@", 1)
		if r := edit(t, remote.ID, map[string]string{"url": newURL, "headers": "X-Api-Key: new-header"}); r.Status != http.StatusSeeOther {
			t.Fatalf("saving: %d %s", r.Status, r.Body)
		}
		want := strings.Replace(secretURL, "url-pw-secret", "new-pw", 1)
		if s, err := d.reg.Get(ctx, remote.ID); err != nil || s.URL != want || len(s.Headers) != 1 || s.Headers["X-Api-Key"] != "new-header" {
			t.Errorf("after saving, remote = %q %v, %v; want %q", s.URL, s.Headers, err, want)
		}
	})

	t.Run("secrets are not carried to another origin", func(t *testing.T) {
		before, _ := d.reg.Get(ctx, remote.ID)
		other := strings.Replace(backend.RedactURL(before.URL), "127.0.0.1", "localhost", 1)
		r := edit(t, remote.ID, map[string]string{"url": other, "headers": "X-Api-Key: " + backend.RedactedValue})
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d, want 422: %s", r.Status, r.Body)
		}
		for _, f := range []string{"url", "headers"} {
			if !strings.Contains(r.Body, `data-testid="error-`+f+`"`) {
				t.Errorf("no error shown for %q", f)
			}
		}
		if after, _ := d.reg.Get(ctx, remote.ID); after.URL != before.URL {
			t.Errorf("URL changed to %q", after.URL)
		}
	})
}
