//go:build !race

package toolclass

const raceEnabled = false
