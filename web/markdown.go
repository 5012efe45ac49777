package web

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// isMarkdown reports whether text from a server should be shown as
// Markdown. A declared type decides (text/markdown yes, any other no);
// without one a conservative guess looks for the marks of Markdown in the
// first markdownSample bytes: a code fence or a heading is enough,
// otherwise two different kinds among lists, links and emphasis.
func isMarkdown(text, mimeType string) bool {
	if mimeType != "" {
		mt, _, _ := strings.Cut(strings.ToLower(mimeType), ";")
		mt = strings.TrimSpace(mt)
		return mt == "text/markdown" || mt == "text/x-markdown"
	}
	text = text[:min(len(text), markdownSample)]
	if mdFence().MatchString(text) || mdHeading().MatchString(text) {
		return true
	}
	kinds := 0
	for _, re := range []*regexp.Regexp{mdList(), mdLink(), mdEmphasis()} {
		if re.MatchString(text) {
			kinds++
		}
	}
	return kinds >= 2
}

// markdownSample bounds how much of a text the guess reads, and so its cost.
const markdownSample = 16 << 10

var (
	mdFence = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?m)^ {0,3}(```|~~~)")
	})
	mdHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^ {0,3}#{1,6} \S`)
	})
	mdList = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^ {0,3}([-*+]|\d{1,3}[.)]) \S`)
	})
	mdLink = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[[^\]\n]+\]\([^)\s]+\)`)
	})
	mdEmphasis = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(\\*\\*|__)[^*_\\n]+(\\*\\*|__)|`[^`\\n]+`")
	})
)

// renderMarkdown renders Markdown from a server as HTML that is safe to
// put in the page: raw HTML in the source is dropped, images become links
// (the page loads nothing from the network), and the result passes
// bluemonday's UGC policy, with links opening in a new tab, rel
// noopener nofollow.
func renderMarkdown(src string) string {
	var buf bytes.Buffer
	if err := markdown().Convert([]byte(src), &buf); err != nil {
		return ""
	}
	return markdownPolicy().Sanitize(buf.String())
}

var markdown = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(imagesAsLinks{}, 100))),
	)
})

var markdownPolicy = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.RewriteSrc(func(u *url.URL) { *u = url.URL{} }) // no element loads anything
	return p
})

// imagesAsLinks turns every image into a link to it, labelled with its
// alternative text.
type imagesAsLinks struct{}

func (imagesAsLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var images []*ast.Image
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering {
			images = append(images, img)
		}
		return ast.WalkContinue, nil
	})
	for _, img := range images {
		link := ast.NewLink()
		link.Destination, link.Title = img.Destination, img.Title
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(link, c)
			c = next
		}
		if link.ChildCount() == 0 {
			link.AppendChild(link, ast.NewString([]byte("image")))
		}
		img.Parent().ReplaceChild(img.Parent(), img, link)
	}
}
