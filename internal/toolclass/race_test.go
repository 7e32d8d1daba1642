//go:build race

package toolclass

// raceEnabled is true under the race detector, whose sync.Pool drops items
// at random: regexp's pooled matchers are then made again, so allocation
// counts mean nothing there.
const raceEnabled = true
