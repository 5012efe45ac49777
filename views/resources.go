package views

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/a-h/templ"
)

func queryEscape(s string) string { return url.QueryEscape(s) }

// resourceName is a resource's name, with its title when that says more.
func resourceName(name, title string) string {
	switch {
	case title == "" || title == name:
		return name
	case name == "":
		return title
	}
	return title + " (" + name + ")"
}

// formatSize is a byte count as people read it.
func formatSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}

// blobURL is a download link of binary contents, false when they are not
// valid base64.
func blobURL(b64 string) (templ.SafeURL, bool) {
	return dataURL(map[string]bool{"application/octet-stream": true}, "application/octet-stream", b64)
}

// base64Len is how many bytes base64 text decodes to.
func base64Len(b64 string) int {
	n := len(strings.TrimRight(b64, "="))
	return n * 3 / 4
}

// downloadName is the file name a download of a resource's i-th contents
// suggests: the URI's last segment before any query, or a generic one.
func downloadName(uri string, i int) string {
	name := uri
	if cut := strings.IndexAny(name, "?#"); cut >= 0 {
		name = name[:cut]
	}
	name = strings.TrimRight(name, "/")
	if slash := strings.LastIndexByte(name, '/'); slash >= 0 {
		name = name[slash+1:]
	}
	if unescaped, err := url.PathUnescape(name); err == nil {
		name = unescaped
	}
	if name == "" || strings.ContainsAny(name, ":/\\") {
		return fmt.Sprintf("resource-%d.bin", i+1)
	}
	return name
}
