package matrix

// Variant is one agent of a suite with one of its models: an axis value of
// a comparison, as a job carries it (Job.Agent, Job.Model). Model is "" when the suite names no models.
type Variant struct {
	Agent, Model string
}

// String is the variant's name in messages, reports and the viewer:
// "agent × model", or whichever of the two is set ("" for neither).
func (v Variant) String() string {
	switch {
	case v.Model == "":
		return v.Agent
	case v.Agent == "":
		return v.Model
	}
	return v.Agent + " × " + v.Model
}
