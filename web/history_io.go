package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// exportLine is one line of an NDJSON export (of a session or of a history
// search): a frame in the shape of GET /api/v1/sessions/{id}/frames, with
// the session it belongs to, that session's server name and negotiated
// protocol version, so that an import can tell where it was recorded and
// a linter which version to judge it by, and whether the file is an
// excerpt of the session (a filtered session export, a history export, or
// an export of a session that is an excerpt itself) rather than every
// frame of it from its start. A body that is JSON but
// not compact JSON is given as bodyText, so that it keeps its bytes.
type exportLine struct {
	apiFrame
	SessionID       int64  `json:"sessionId"`
	ServerName      string `json:"serverName,omitempty"`
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	Excerpt         bool   `json:"excerpt,omitempty"`
}

// exportLineOf is f, of session s, as an export writes it; excerpt says
// the export holds only some of the session's frames.
func exportLineOf(f backend.Frame, s backend.Session, excerpt bool) exportLine {
	l := exportLine{apiFrame: apiFrameOf(f), SessionID: s.ID, ServerName: s.ServerName, ProtocolVersion: s.ProtocolVersion, Excerpt: excerpt}
	if l.Body != nil {
		var compact bytes.Buffer
		if json.Compact(&compact, f.Body) != nil || !bytes.Equal(compact.Bytes(), f.Body) {
			l.Body, l.BodyText = nil, string(f.Body)
		}
	}
	return l
}

// newExportEncoder writes export lines to w. Bodies keep their bytes: the
// file is a download, never HTML, so <, > and & stay as they are.
func newExportEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// startExport answers with an NDJSON attachment named filename.
func startExport(c echo.Context, filename string) {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "application/x-ndjson")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="`+filename+`"`)
	c.Response().WriteHeader(http.StatusOK)
}

// historyExportPage is how many exchanges a history export reads at a time.
const historyExportPage = 100

// exportHistory sends every exchange that the history search selects (the
// query and the selects, as searchHistory reads them), on every page, as
// NDJSON in the lines of exportLine: the request frame, then the response
// frame, of each exchange, newest exchange first as history lists them,
// bodies whole. It reads a page of exchanges at a time, so a result of any
// size streams in bounded memory. A failure after the first line ends the
// download early and is logged.
func (s *Server) exportHistory(c echo.Context) error {
	d := views.HistoryPageData{Query: c.QueryParam("q"), Server: c.QueryParam("server"), Outcome: c.QueryParam("outcome")}
	q, err := historyQueryOf(d)
	if backend.ErrorCodeOf(err) == backend.EInvalid {
		return echo.NewHTTPError(http.StatusBadRequest, backend.ErrorMessageOf(err)) // as the search box answers it
	} else if err != nil {
		return err
	}
	ctx := c.Request().Context()
	entries, err := s.deps.History.SearchHistory(ctx, q, 0, historyExportPage)
	if err != nil {
		return err
	}
	startExport(c, "history-"+time.Now().UTC().Format("20060102-150405")+".ndjson")
	enc := newExportEncoder(c.Response())
	for len(entries) > 0 {
		for _, e := range entries {
			for _, id := range []int64{e.Request.ID, e.Response.ID} {
				f, err := s.deps.Frames.GetFrame(ctx, id)
				if err != nil {
					s.deps.Log.Error("history export cut short", "frame", id, "err", err)
					return nil
				}
				if err := enc.Encode(exportLineOf(f, e.Session, true)); err != nil {
					return nil // the client went away
				}
			}
		}
		c.Response().Flush()
		if entries, err = s.deps.History.SearchHistory(ctx, q, entries[len(entries)-1].ExchangeID(), historyExportPage); err != nil {
			s.deps.Log.Error("history export cut short", "err", err)
			return nil
		}
	}
	return nil
}

const (
	// maxImportFile is the largest file an import reads.
	maxImportFile = 64 << 20
	// maxImportBody bounds the body of POST /sessions/import: the file and
	// the rest of the form (see bodyLimit).
	maxImportBody = maxImportFile + 1<<20
	// maxImportLine is the longest line of an import file.
	maxImportLine = 16 << 20
	// importPath is the import's route.
	importPath = "/sessions/import"
)

// importTooLarge is what a person sees for a file over maxImportFile.
var importTooLarge = fmt.Sprintf("The file is larger than the %d MiB limit of an import.", maxImportFile>>20)

// showImport is the import form alone.
func (s *Server) showImport(c echo.Context) error {
	return render(c, http.StatusOK, views.SessionImportPage(page(c, "Import a session"), ""))
}

// importSession stores an uploaded NDJSON export (the form's file field)
// as a new read-only session and shows it. A file that is missing, too
// large, empty or not an export is shown on the import form, with status
// 422, and nothing is stored.
func (s *Server) importSession(c echo.Context) error {
	fh, err := c.FormFile("file")
	if err != nil {
		return importFailed(c, "Choose an NDJSON file to import.")
	}
	name := importFileName(fh)
	if fh.Size > maxImportFile {
		return importFailed(c, "Nothing was imported from "+name+". "+importTooLarge)
	}
	file, err := fh.Open()
	if err != nil {
		return fmt.Errorf("web: opening the uploaded file: %w", err)
	}
	defer file.Close()
	id, err := s.deps.Imports.Import(c.Request().Context(), name, time.Now(), ReadExport(file))
	if err != nil {
		if backend.ErrorCodeOf(err) != backend.EInvalid {
			return err
		}
		return importFailed(c, "Nothing was imported from "+name+". "+backend.ErrorMessageOf(err))
	}
	return c.Redirect(http.StatusSeeOther, "/sessions/"+itoa(id))
}

// importFailed shows the import form with why the upload was refused.
func importFailed(c echo.Context, msg string) error {
	return render(c, http.StatusUnprocessableEntity, views.SessionImportPage(page(c, "Import a session"), msg))
}

// importFileName is the uploaded file's base name, as the session keeps it.
func importFileName(fh *multipart.FileHeader) string {
	name := filepath.Base(strings.ReplaceAll(fh.Filename, `\`, "/"))
	if name == "." || name == "/" || name == "" {
		return "upload.ndjson"
	}
	return name
}

// ReadExport reads an NDJSON export of a session or of a history search,
// as the dashboard writes it, from r: one frame a line (blank lines
// skipped), yielded as it is read, so that a file of any size is read in
// bounded memory. A frame keeps the file's session and frame ids, server
// name, protocol version and excerpt mark; the findings the file gives
// are left out (a reader lints the frames again, backend.ExportLinter).
// ReadExport yields a backend.EInvalid error naming the line, and stops,
// at a line that is longer than 16 MiB, is not a frame, or gives a frame
// fields that no recording has (backend.ImportedFrame.Check), and at a
// read error of r. The caller owns r.
func ReadExport(r io.Reader) iter.Seq2[backend.ImportedFrame, error] {
	return func(yield func(backend.ImportedFrame, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), maxImportLine)
		line := 0
		for sc.Scan() {
			line++
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 {
				continue
			}
			f, err := importedFrameOf(text, line)
			if err == nil {
				err = f.Check()
			}
			if !yield(f, err) || err != nil {
				return
			}
		}
		if err := sc.Err(); err != nil {
			msg := fmt.Sprintf("Line %d could not be read: %v.", line+1, err)
			if errors.Is(err, bufio.ErrTooLong) {
				msg = fmt.Sprintf("Line %d is longer than the %d MiB limit of a line.", line+1, maxImportLine>>20)
			}
			yield(backend.ImportedFrame{}, backend.Errorf(backend.EInvalid, "%s", msg))
		}
	}
}

// importedFrameOf decodes line number n, text, of an export.
func importedFrameOf(text []byte, n int) (backend.ImportedFrame, error) {
	var l exportLine
	if err := json.Unmarshal(text, &l); err != nil {
		return backend.ImportedFrame{}, backend.Errorf(backend.EInvalid,
			"Line %d is not a frame of an NDJSON export (one JSON object a line): %s.", n, jsonProblem(err))
	}
	f := backend.Frame{
		ID: l.ID, SessionID: l.SessionID, Time: l.Time, Direction: backend.Direction(l.Direction), Kind: backend.FrameKind(l.Kind),
		RPCType: backend.RPCType(l.RPCType), RPCID: string(l.RPCID), Method: l.Method, HTTP: l.HTTP, PairID: l.PairID,
		Clash: backend.IDClash(l.IDClash), ClashFrameID: l.IDClashFrame,
	}
	if f.RPCID == "null" {
		f.RPCID = "" // as the export writes no id: a frame without one
	}
	switch {
	case l.Body != nil:
		f.Body = []byte(l.Body)
	case l.BodyText != "":
		f.Body = []byte(l.BodyText)
		// apiFrameOf quotes a body that is not UTF-8.
		if raw, err := strconv.Unquote(l.BodyText); err == nil && !utf8.ValidString(raw) {
			f.Body = []byte(raw)
		}
	}
	return backend.ImportedFrame{Frame: f, ServerName: l.ServerName, ProtocolVersion: l.ProtocolVersion, Excerpt: l.Excerpt, Line: n}, nil
}

// jsonProblem says briefly what is wrong with a line that did not decode.
func jsonProblem(err error) string {
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return fmt.Sprintf("it is not JSON (at byte %d)", syntaxErr.Offset)
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return "it is a JSON " + typeErr.Value + ", not an object"
		}
		field := typeErr.Field[strings.LastIndex(typeErr.Field, ".")+1:] // without the embedded apiFrame's name
		return "its " + field + " is a JSON " + typeErr.Value
	}
	return err.Error()
}
