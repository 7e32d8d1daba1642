package matrix

// Variant is one agent of a suite with one of its models: an axis value of
// a comparison, as a job carries it (Job.Agent, Job.Model). Model is "" when the suite names no models.
type Variant struct {
	Agent, Model string
}

// String is the variant's name in messages and reports: agent or
// agent × model.
func (v Variant) String() string {
	if v.Model == "" {
		return v.Agent
	}
	return v.Agent + " × " + v.Model
}
