package scenario

// UpdateGolden reports whether the tests run with -update, for the external
// test package (one test binary holds one flag of a name).
func UpdateGolden() bool { return *update }
