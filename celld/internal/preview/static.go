package preview

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/tcpsock"
)

// staticServer is a deliberately tiny HTTP/1.1 GET/HEAD file server for previews of plain
// index.html sites. net/http would more than double the binary and celld's idle RSS.
type staticServer struct {
	root *confine.Root
	base string // directory beneath root that is served
	ln   *os.File

	mu    sync.Mutex
	conns map[*os.File]struct{}
}

const (
	staticMaxHeader   = 16 << 10
	staticIdleTimeout = 60 * time.Second
)

func startStaticServer(root *confine.Root, base string, port int) (*staticServer, error) {
	ln, err := tcpsock.Listen(port)
	if err != nil {
		return nil, err
	}
	s := &staticServer{root: root, base: base, ln: ln, conns: map[*os.File]struct{}{}}
	go s.acceptLoop()
	return s, nil
}

func (s *staticServer) Close() {
	s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
}

func (s *staticServer) acceptLoop() {
	for {
		c, err := tcpsock.Accept(s.ln)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = struct{}{}
		s.mu.Unlock()
		go func() {
			s.serveConn(c)
			c.Close()
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		}()
	}
}

// serveConn answers requests on one keep-alive connection until it closes or misbehaves.
func (s *staticServer) serveConn(c *os.File) {
	br := bufio.NewReaderSize(c, 4096)
	for {
		c.SetReadDeadline(time.Now().Add(staticIdleTimeout))
		method, target, keepAlive, err := readRequestHead(br)
		if err != nil {
			if err != io.EOF {
				writeStatus(c, 400, "bad request", false)
			}
			return
		}
		c.SetWriteDeadline(time.Now().Add(5 * time.Minute))
		if !s.respond(c, method, target, keepAlive) || !keepAlive {
			return
		}
	}
}

// readRequestHead parses the request line and headers; requests with bodies are not kept alive.
func readRequestHead(br *bufio.Reader) (method, target string, keepAlive bool, err error) {
	total := 0
	line := func() (string, error) {
		l, err := br.ReadString('\n')
		if total += len(l); total > staticMaxHeader {
			return "", fmt.Errorf("header too large")
		}
		if err != nil {
			if err == io.EOF && l == "" && total == 0 {
				return "", io.EOF
			}
			return "", fmt.Errorf("truncated request")
		}
		return strings.TrimRight(l, "\r\n"), nil
	}
	first, err := line()
	if err != nil {
		return "", "", false, err
	}
	parts := strings.Split(first, " ")
	if len(parts) != 3 || !strings.HasPrefix(parts[2], "HTTP/1.") {
		return "", "", false, fmt.Errorf("bad request line")
	}
	keepAlive = parts[2] == "HTTP/1.1"
	for {
		h, err := line()
		if err != nil {
			return "", "", false, err
		}
		if h == "" {
			break
		}
		name, value, _ := strings.Cut(h, ":")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.ToLower(strings.TrimSpace(value))
		switch {
		case name == "connection" && value == "close":
			keepAlive = false
		case name == "connection" && value == "keep-alive":
			keepAlive = true
		case name == "content-length" && value != "0", name == "transfer-encoding":
			keepAlive = false
		}
	}
	return parts[0], parts[1], keepAlive, nil
}

func writeStatus(w io.Writer, code int, text string, keepAlive bool) bool {
	body := fmt.Sprintf("%d %s\n", code, text)
	_, err := fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: %s\r\n\r\n%s",
		code, text, len(body), connHeader(keepAlive), body)
	return err == nil
}

func connHeader(keepAlive bool) string {
	if keepAlive {
		return "keep-alive"
	}
	return "close"
}

// respond serves one request; false means the connection must close.
func (s *staticServer) respond(w io.Writer, method, target string, keepAlive bool) bool {
	if method != "GET" && method != "HEAD" {
		return writeStatus(w, 405, "method not allowed", false) && false
	}
	rawPath, _, _ := strings.Cut(target, "?")
	decoded, err := url.PathUnescape(rawPath)
	if err != nil || !strings.HasPrefix(decoded, "/") {
		return writeStatus(w, 400, "bad request", keepAlive)
	}
	clean := path.Clean(decoded)
	rel := strings.TrimPrefix(clean, "/")
	if s.base != "." {
		rel = strings.TrimSuffix(s.base+"/"+rel, "/")
	}
	if rel == "" {
		rel = "."
	}
	f, st, err := s.open(rel)
	if err != nil {
		return writeStatus(w, 404, "not found", keepAlive)
	}
	if sys.IsType(&st, syscall.S_IFDIR) {
		f.Close()
		if !strings.HasSuffix(decoded, "/") {
			loc := clean + "/"
			if clean == "/" {
				loc = "/"
			}
			_, err := fmt.Fprintf(w, "HTTP/1.1 301 Moved Permanently\r\nLocation: %s\r\nContent-Length: 0\r\nConnection: %s\r\n\r\n", loc, connHeader(keepAlive))
			return err == nil
		}
		if rel == "." {
			rel = "index.html"
		} else {
			rel += "/index.html"
		}
		if f, st, err = s.open(rel); err != nil || !sys.IsType(&st, syscall.S_IFREG) {
			if f != nil {
				f.Close()
			}
			return writeStatus(w, 404, "not found", keepAlive)
		}
	}
	defer f.Close()
	_, err = fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: %s\r\n\r\n",
		contentType(rel), st.Size, connHeader(keepAlive))
	if err != nil {
		return false
	}
	if method == "HEAD" {
		return true
	}
	n, err := io.CopyN(w, f, st.Size)
	return err == nil && n == st.Size
}

// open resolves rel like every other read: kernel-confined beneath root, regular files and
// directories only, dot-git and celld temp files hidden; FIFOs are refused before any read.
func (s *staticServer) open(rel string) (*os.File, syscall.Stat_t, error) {
	var st syscall.Stat_t
	p, perr := confine.CleanPath(rel)
	if perr != nil {
		return nil, st, perr
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".git" || strings.HasPrefix(seg, ".celld-tmp-") {
			return nil, st, os.ErrNotExist
		}
	}
	probe, err := s.root.Open(p, sys.OPath, 0, confine.FollowBeneath)
	if err != nil {
		return nil, st, err
	}
	st, err = sys.Fstat(probe)
	syscall.Close(probe)
	if err != nil || !(sys.IsType(&st, syscall.S_IFREG) || sys.IsType(&st, syscall.S_IFDIR)) {
		return nil, st, os.ErrPermission
	}
	fd, err := s.root.Open(p, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0, confine.FollowBeneath)
	if err != nil {
		return nil, st, err
	}
	if st, err = sys.Fstat(fd); err != nil || !(sys.IsType(&st, syscall.S_IFREG) || sys.IsType(&st, syscall.S_IFDIR)) {
		syscall.Close(fd)
		return nil, st, os.ErrPermission
	}
	return os.NewFile(uintptr(fd), p), st, nil
}

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8",
	".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
	".json": "application/json", ".map": "application/json", ".txt": "text/plain; charset=utf-8",
	".md": "text/plain; charset=utf-8", ".csv": "text/csv; charset=utf-8", ".xml": "application/xml",
	".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".avif": "image/avif", ".ico": "image/x-icon",
	".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".otf": "font/otf",
	".wasm": "application/wasm", ".pdf": "application/pdf", ".mp4": "video/mp4", ".webm": "video/webm",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".webmanifest": "application/manifest+json",
}

func contentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}
