package report

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
)

var screenshots = flag.String("screenshots", "", "TestHTMLInChromium: also write each report and its screenshots at both widths into this directory")

// layoutVerdict is what testdata/layout-check.js reports.
type layoutVerdict struct {
	Width, Height, Elements, Labels int
	Problems                        []struct {
		Kind, El string
		By       int
	}
	More int
}

// TestHTMLInChromium renders reports of real runs in headless Chromium at a
// desktop width (1280 px) and a phone width (390 px) and fails on any
// page-level horizontal overflow, any column a reader would have to scroll
// sideways to reach at desktop width, and any clipped or spilling label
// (testdata/layout-check.js measures the laid-out page). It is skipped when
// Chromium is not installed. With -screenshots DIR it also writes each page
// and full-page screenshots at both widths:
//
//	go test ./report -run TestHTMLInChromium -v -args -screenshots=/tmp/shots
func TestHTMLInChromium(t *testing.T) {
	t.Parallel()
	bin := testtool.Need(t, "chromium")
	check, err := os.ReadFile(filepath.Join("testdata", "layout-check.js"))
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		r    func(t *testing.T) *Results
	}{
		{"sample", func(t *testing.T) *Results { return sampleResults(t) }},
		{"examples", func(t *testing.T) *Results { return readResults(t, examplesResults(t)) }},
		{"matrix3", func(t *testing.T) *Results { return readResults(t, matrix3Results(t)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var page bytes.Buffer
			require.NoError(t, writeHTML(&page, tc.r(t), WriteOptions{}))
			dir := *screenshots
			if dir == "" {
				dir = t.TempDir()
			} else {
				require.NoError(t, os.MkdirAll(dir, 0o755))
			}
			pagePath, err := filepath.Abs(writeFile(t, dir, tc.name+".html", page.String()))
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			tab, err := testtool.StartChromium(t, bin).NewPage(ctx)
			require.NoError(t, err)
			for _, width := range []int{1280, 390} {
				require.NoError(t, tab.Load(ctx, "file://"+pagePath, width, 900, width < 600))
				out, err := tab.Eval(ctx, string(check))
				require.NoError(t, err)
				var v layoutVerdict
				require.NoError(t, json.Unmarshal([]byte(out), &v))
				require.Equal(t, width, v.Width, "the viewport is the width asked for")
				assert.Positive(t, v.Labels, "bar labels were measured")
				for _, p := range v.Problems {
					t.Errorf("%d px: %s (%d px): %s", width, p.Kind, p.By, p.El)
				}
				if v.More > 0 {
					t.Errorf("%d px: %d more problem(s)", width, v.More)
				}
				if *screenshots != "" {
					shoot(ctx, t, tab, filepath.Join(dir, fmt.Sprintf("%s-%d", tc.name, width)), width, v.Height)
				}
			}
		})
	}
}

// screenTile is the height of the pieces a long page is also cut into, so
// that each reads at full size in an image viewer.
const screenTile = 1400

// shoot writes a full-page screenshot of the loaded page as NAME.png and
// the same page in pieces as NAME-part-N.png.
func shoot(ctx context.Context, t *testing.T, tab *testtool.Page, name string, width, height int) {
	t.Helper()
	height = min(height, 16000)
	png, err := tab.Screenshot(ctx, 0, width, height)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(name+".png", png, 0o644))
	for i, y := 1, 0; y < height; i, y = i+1, y+screenTile {
		png, err := tab.Screenshot(ctx, y, width, min(screenTile, height-y))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(fmt.Sprintf("%s-part-%d.png", name, i), png, 0o644))
	}
	t.Logf("wrote %s.png (%d×%d) and its parts", name, width, height)
}
