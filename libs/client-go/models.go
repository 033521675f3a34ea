package vitalis

import "encoding/json"

// Health is GET /api/v1/health.
type Health struct {
	Status  string                     `json:"status"`
	Version string                     `json:"version"`
	Checks  map[string]DependencyCheck `json:"checks"`
}

type DependencyCheck struct {
	Status    string  `json:"status"`
	LatencyMS float64 `json:"latency_ms"`
}

// Waveform is an ECG chunk (MDC 131330, mV).
type Waveform struct {
	Origin   float64   `json:"origin"`
	PeriodMS float64   `json:"period_ms"`
	Samples  []float64 `json:"samples"`
}

// Observation is one vitals observation (wire format of schemas/src/vitals.ts).
type Observation struct {
	PatientID   string    `json:"patient_id"`
	DeviceID    string    `json:"device_id"`
	Seq         int64     `json:"seq"`
	EffectiveAt string    `json:"effective_at"`
	Code        string    `json:"code"`
	Unit        string    `json:"unit"`
	Value       *float64  `json:"value,omitempty"`
	Waveform    *Waveform `json:"waveform,omitempty"`
}

// The envelopes of a device frame (docs/vitals.md): a v1 frame's ECG chunk carries Origin and
// Samples in mV, a v2 frame's whole 0.1 µV SampleSteps (the potential in mV is step / 10,000).
const (
	FrameV1 = "vitals.frame.v1"
	FrameV2 = "vitals.frame.v2"
)

// Frame is one device's observations at one tick (a monitor's report): one Kafka record.
type Frame struct {
	Envelope     string             `json:"envelope"`
	PatientID    string             `json:"patient_id"`
	DeviceID     string             `json:"device_id"`
	EffectiveAt  string             `json:"effective_at"`
	Observations []FrameObservation `json:"observations"`
}

// FrameObservation is a frame's measurement or ECG chunk: the frame's patient and device, a seq
// of its own; EffectiveAt defaults to the frame's tick (an ECG chunk's: its first sample).
type FrameObservation struct {
	Seq         int64          `json:"seq"`
	Code        string         `json:"code"`
	Unit        string         `json:"unit"`
	EffectiveAt string         `json:"effective_at,omitempty"`
	Value       *float64       `json:"value,omitempty"`
	Waveform    *FrameWaveform `json:"waveform,omitempty"`
}

// FrameWaveform is a frame's ECG chunk: SampleSteps in a v2 frame (each within ±200,000), Origin
// and Samples in a v1 frame.
type FrameWaveform struct {
	PeriodMS    float64   `json:"period_ms"`
	SampleSteps []int32   `json:"sample_steps,omitempty"`
	Origin      *float64  `json:"origin,omitempty"`
	Samples     []float64 `json:"samples,omitempty"`
}

// VitalsBatch is the body of POST /api/v1/vitals: up to 1,000 observations and up to 500 frames,
// at least one of either.
type VitalsBatch struct {
	Observations []Observation `json:"observations,omitempty"`
	Frames       []Frame       `json:"frames,omitempty"`
}

// VitalsQuery are the parameters of GET /api/v1/vitals.
type VitalsQuery struct {
	Patient string
	From    string
	To      string
	Code    string
	Bucket  string // 1s|1m|1h|1d: aggregate
	Agg     string // avg,min,max,count,last (with Bucket)
	Limit   int
	Cursor  string
}

// VitalsPage is a page of raw history.
type VitalsPage struct {
	PatientID string        `json:"patient_id"`
	From      string        `json:"from"`
	To        string        `json:"to"`
	Count     int           `json:"count"`
	Data      []Observation `json:"data"`
	Next      *string       `json:"next"`
}

// BucketPoint is one aggregate bucket.
type BucketPoint struct {
	Code   string   `json:"code"`
	Bucket string   `json:"bucket"`
	Count  *int     `json:"count,omitempty"`
	Avg    *float64 `json:"avg,omitempty"`
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	Last   *float64 `json:"last,omitempty"`
	LastAt *string  `json:"last_at,omitempty"`
}

// BucketPage is a page of aggregated history.
type BucketPage struct {
	PatientID string        `json:"patient_id"`
	Bucket    string        `json:"bucket"`
	Agg       []string      `json:"agg"`
	Source    string        `json:"source"`
	Count     int           `json:"count"`
	Data      []BucketPoint `json:"data"`
	Next      *string       `json:"next"`
}

// LatestVitals is the latest observation per code.
type LatestVitals struct {
	PatientID string        `json:"patient_id"`
	Count     int           `json:"count"`
	Data      []Observation `json:"data"`
}

type PublishResult struct {
	Accepted int    `json:"accepted"`
	Topic    string `json:"topic"`
}

// Patient is a FHIR R4 Patient; fields beyond the id are kept raw (name, birthDate, gender,
// identifier, telecom, ...).
type Patient struct {
	ResourceType string                     `json:"resourceType"`
	ID           string                     `json:"id"`
	Fields       map[string]json.RawMessage `json:"-"`
}

func (p *Patient) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &p.Fields); err != nil {
		return err
	}
	var v struct {
		ResourceType string `json:"resourceType"`
		ID           string `json:"id"`
	}
	err := json.Unmarshal(b, &v)
	p.ResourceType, p.ID = v.ResourceType, v.ID
	return err
}

// PatientRecord is GET /api/v1/patients/{id}: FHIR resources side by side (0.2.0; before, the
// Patient itself carried "allergies" and "vitals"), the same envelope as the MCP tool get_patient.
// Allergies (FHIR AllergyIntolerance, kept raw) for clinical readers; LatestVitals and News2 when
// they also hold read:vitals.
type PatientRecord struct {
	View         string           `json:"view"`
	Patient      Patient          `json:"patient"`
	Allergies    []map[string]any `json:"allergies,omitempty"`
	LatestVitals []LatestVital    `json:"latest_vitals,omitempty"`
	News2        map[string]any   `json:"news2,omitempty"`
}

// LatestVital is the latest value of one numeric vital sign.
type LatestVital struct {
	Code        string  `json:"code"`
	Display     string  `json:"display"`
	Value       float64 `json:"value"`
	Unit        string  `json:"unit"`
	EffectiveAt string  `json:"effective_at"`
}

// Appointment is a FHIR R4 Appointment (booked or cancelled).
type Appointment struct {
	ResourceType string                     `json:"resourceType"`
	ID           string                     `json:"id"`
	Status       string                     `json:"status"`
	Fields       map[string]json.RawMessage `json:"-"`
}

func (a *Appointment) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &a.Fields); err != nil {
		return err
	}
	var v struct {
		ResourceType string `json:"resourceType"`
		ID           string `json:"id"`
		Status       string `json:"status"`
	}
	err := json.Unmarshal(b, &v)
	a.ResourceType, a.ID, a.Status = v.ResourceType, v.ID, v.Status
	return err
}

// Bundle is a FHIR searchset Bundle (lists and searches; Link relation "next" is the next page;
// an appointment listing also includes the clinicians' Schedules, search mode "include").
type Bundle struct {
	ResourceType string `json:"resourceType"`
	Type         string `json:"type"`
	Entry        []struct {
		FullURL  string         `json:"fullUrl"`
		Resource map[string]any `json:"resource"`
		Search   struct {
			Mode string `json:"mode"`
		} `json:"search"`
	} `json:"entry"`
	Link []struct {
		Relation string `json:"relation"`
		URL      string `json:"url"`
	} `json:"link"`
}

// NextURL is the URL of the next page ("" on the last page).
func (b *Bundle) NextURL() string {
	for _, l := range b.Link {
		if l.Relation == "next" {
			return l.URL
		}
	}
	return ""
}

// Resources are the entries' resources of one resourceType ("" = all).
func (b *Bundle) Resources(resourceType string) []map[string]any {
	var out []map[string]any
	for _, e := range b.Entry {
		if resourceType == "" || e.Resource["resourceType"] == resourceType {
			out = append(out, e.Resource)
		}
	}
	return out
}

// Booking is the body of an appointment booking.
type Booking struct {
	SlotID    string `json:"slot_id"`
	PatientID string `json:"patient_id"`
	Reason    string `json:"reason,omitempty"`
}
