package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend/collections"
)

// fetchTimeout bounds fetching a collection file from a dashboard.
const fetchTimeout = time.Minute

// isURL reports whether a collection file is named by an http(s) URL.
func isURL(src string) bool {
	return strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://")
}

// fetchCollectionFile downloads a collection file from a dashboard's
// export URL (…/api/v1/collections/ID/export), sending the personal API
// token of PLAYGROUND_TOKEN (an environment variable only, so that it does
// not show in the process list) as a Bearer token. What fails is a usage
// error that says why.
func fetchCollectionFile(ctx context.Context, src string, getenv func(string) string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return nil, usageError("run: %w", err)
	}
	if token := getenv("PLAYGROUND_TOKEN"); token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, usageError("run: fetching the collection file: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, collections.MaxFileBytes+1))
	if err != nil {
		return nil, usageError("run: fetching the collection file: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var apiErr struct {
			Error string `json:"error"`
		}
		why := resp.Status
		if json.Unmarshal(data, &apiErr) == nil && apiErr.Error != "" {
			why += ": " + apiErr.Error
		}
		if resp.StatusCode == http.StatusUnauthorized && getenv("PLAYGROUND_TOKEN") == "" {
			why += " (set PLAYGROUND_TOKEN to a personal API token of the dashboard)"
		}
		return nil, usageError("run: fetching the collection file: %s", why)
	}
	return data, nil
}

// readCollectionSource returns the bytes of the collection file src: a
// path, or a dashboard's export URL (fetchCollectionFile).
func readCollectionSource(ctx context.Context, src string, getenv func(string) string) ([]byte, error) {
	if isURL(src) {
		return fetchCollectionFile(ctx, src, getenv)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, usageError("run: %w", err)
	}
	return data, nil
}

// describeSource names src in messages: a URL without its query.
func describeSource(src string) string {
	if isURL(src) {
		base, _, _ := strings.Cut(src, "?")
		return base
	}
	return src
}
