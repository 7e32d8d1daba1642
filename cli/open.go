package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// openBrowser asks the desktop to open url in a browser (xdg-open, or open
// on macOS), found on the environment's PATH, and says what it did. Where
// there is none (no such program, or a Linux session with no display)
// nothing is started and the message says to open the URL by hand. The
// opener is left to run on its own (it may start the browser, which must
// outlive it); it is waited for in the background so that it leaves no
// zombie.
func openBrowser(getenv func(string) string, url string) string {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		return "no browser opened (--open knows xdg-open and open): open " + url + " yourself"
	}
	if runtime.GOOS != "darwin" && getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return "no browser opened (no display: DISPLAY and WAYLAND_DISPLAY are unset): open " + url + " yourself"
	}
	path := lookPath(getenv("PATH"), name)
	if path == "" {
		return "no browser opened (" + name + " is not on PATH): open " + url + " yourself"
	}
	cmd := exec.Command(path, url)
	cmd.Env = os.Environ()
	if err := cmd.Start(); err != nil {
		return "no browser opened (" + name + ": " + err.Error() + "): open " + url + " yourself"
	}
	go func() {
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute): // it went on running: not ours to end
		}
	}()
	return "opened " + url + " with " + name
}

// lookPath finds an executable name in the directories of pathList.
func lookPath(pathList, name string) string {
	for _, dir := range strings.Split(pathList, string(os.PathListSeparator)) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
