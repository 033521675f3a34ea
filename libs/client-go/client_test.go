package vitalis_test

// Integration tests against a running gateway named by the environment (the vitest harness in
// test/integration/clients starts one with an ingest worker and registers a client holding every
// scope; or point them at a `make run` gateway):
//
//	VITALIS_BASE_URL, VITALIS_CLIENT_ID, VITALIS_CLIENT_SECRET

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	vitalis "github.com/vitalis-health/vitalis/libs/client-go"
)

var baseURL, clientID, clientSecret string

func TestMain(m *testing.M) {
	baseURL, clientID, clientSecret = os.Getenv("VITALIS_BASE_URL"), os.Getenv("VITALIS_CLIENT_ID"), os.Getenv("VITALIS_CLIENT_SECRET")
	if baseURL == "" || clientID == "" || clientSecret == "" {
		fmt.Fprintln(os.Stderr, "VITALIS_BASE_URL, VITALIS_CLIENT_ID and VITALIS_CLIENT_SECRET must name a running gateway and a client (make test sets them)")
		os.Exit(2)
	}
	baseURL = strings.TrimRight(baseURL, "/")
	os.Exit(m.Run())
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

func uid() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func api() *vitalis.Client { return vitalis.NewWithClientCredentials(baseURL, clientID, clientSecret) }

// served: without a token a served route answers 401, an unknown one 404.
func served(t *testing.T, path string) bool {
	res, err := http.Get(baseURL + path)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode != http.StatusNotFound
}

// wsServed: a WebSocket route upgrades (auth may follow in a message); an unknown one answers 404.
func wsServed(t *testing.T, path string) bool {
	conn, res, err := websocket.Dial(ctx(t), "ws"+strings.TrimPrefix(baseURL, "http")+path, nil)
	if err == nil {
		conn.CloseNow()
		return true
	}
	return res == nil || res.StatusCode != http.StatusNotFound
}

func heartRate(patient, device string, seq int64, at time.Time) vitalis.Observation {
	v := float64(60 + seq%40)
	return vitalis.Observation{PatientID: patient, DeviceID: device, Seq: seq, EffectiveAt: at.UTC().Format(time.RFC3339), Code: "8867-4", Unit: "/min", Value: &v}
}

func TestClientCredentialsIdentityAndHealth(t *testing.T) {
	c := api()
	id, err := c.Identity(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmt.Sprint(id), clientID) {
		t.Fatalf("identity %v does not name %s", id, clientID)
	}
	h, err := c.Health(ctx(t))
	if err != nil || (h.Status != "ok" && h.Status != "degraded") {
		t.Fatalf("health %+v %v", h, err)
	}
}

func TestRevokedTokenIsReplacedTransparently(t *testing.T) {
	c := api()
	if _, err := c.Identity(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if err := c.RevokeToken(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Identity(ctx(t)); err != nil {
		t.Fatalf("after revocation: %v", err)
	}
}

func TestRevokedTokenWithoutRenewalIsUnauthorized(t *testing.T) {
	src := vitalis.ClientCredentials(baseURL, clientID, clientSecret)
	token, err := src.Token(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	fixed := vitalis.New(baseURL, vitalis.StaticToken(token))
	if err := fixed.RevokeToken(ctx(t)); err != nil {
		t.Fatal(err)
	}
	_, err = fixed.Identity(ctx(t))
	p, ok := vitalis.AsProblem(err)
	if !ok || p.Status != 401 || p.Type != baseURL+"/errors/unauthorized" || p.Title != "Unauthorized" {
		t.Fatalf("want the 401 problem, got %v", err)
	}
	if !strings.HasPrefix(p.Challenge(), `Bearer realm="vitalis"`) {
		t.Fatalf("challenge %q", p.Challenge())
	}
}

func TestNarrowedScopeIsForbidden(t *testing.T) {
	c := vitalis.NewWithClientCredentials(baseURL, clientID, clientSecret, "read:appointments")
	_, err := c.LatestVitals(ctx(t), "pat-go-"+uid())
	p, ok := vitalis.AsProblem(err)
	if !vitalis.IsForbidden(err) || !ok || p.Kind != "insufficient-scope" || !strings.Contains(p.Challenge(), `error="insufficient_scope"`) {
		t.Fatalf("want insufficient-scope 403, got %v", err)
	}
}

func TestWrongSecretIsAnOAuthError(t *testing.T) {
	_, err := vitalis.NewWithClientCredentials(baseURL, clientID, "wrong").Identity(ctx(t))
	var oe *vitalis.OAuthError
	if !errors.As(err, &oe) || oe.Code != "invalid_client" {
		t.Fatalf("want invalid_client, got %v", err)
	}
}

func TestSandboxReadsButCannotWrite(t *testing.T) {
	c := vitalis.New(baseURL, vitalis.Sandbox(baseURL))
	id, err := c.Identity(ctx(t))
	if err != nil || !strings.Contains(fmt.Sprint(id), "read:vitals") {
		t.Fatalf("sandbox identity %v %v", id, err)
	}
	_, err = c.PublishVitals(ctx(t), []vitalis.Observation{heartRate("p", "d", 1, time.Now())})
	if !vitalis.IsForbidden(err) {
		t.Fatalf("want 403, got %v", err)
	}
}

func TestVitalsPublishHistoryLatest(t *testing.T) {
	c := api()
	patient := "pat-go-" + uid()
	// yesterday, on the hour: inside the gateway's device-clock window, on a minute boundary
	base := time.Now().UTC().Truncate(time.Hour).Add(-24 * time.Hour)
	var batch []vitalis.Observation
	for i := int64(1); i <= 5; i++ {
		batch = append(batch, heartRate(patient, patient+"-mon", i, base.Add(time.Duration(i-1)*time.Second)))
	}
	res, err := c.PublishVitals(ctx(t), batch)
	if err != nil || res.Accepted != 5 {
		t.Fatalf("publish %+v %v", res, err)
	}
	waitLatest(t, c, patient, 5)

	q := vitalis.VitalsQuery{Patient: patient, From: base.Format(time.RFC3339), To: base.Add(time.Minute).Format(time.RFC3339), Limit: 2}
	var seqs []int64
	if err := c.EachVital(ctx(t), q, func(o vitalis.Observation) error { seqs = append(seqs, o.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(seqs) != "[1 2 3 4 5]" {
		t.Fatalf("history seqs %v", seqs)
	}
	// an unaligned range is answered from the append log, not from rollups a projector may not have caught up on
	q.From, q.To = base.Add(-time.Second).Format(time.RFC3339), base.Add(59*time.Second).Format(time.RFC3339)
	q.Bucket, q.Agg, q.Limit = "1m", "min,max,count", 0
	b, err := c.VitalsBuckets(ctx(t), q)
	if err != nil || len(b.Data) != 1 || *b.Data[0].Min != 61 || *b.Data[0].Max != 65 || *b.Data[0].Count != 5 {
		t.Fatalf("buckets %+v %v", b, err)
	}
}

// A monitor's v2 frame (the ECG as whole 0.1 µV steps) beside a spot observation: stored, read back as sent.
func TestFrameAndObservationInOneBatch(t *testing.T) {
	c := api()
	patient := "pat-go-frame-" + uid()
	base := time.Now().UTC().Truncate(time.Hour).Add(-24 * time.Hour)
	at := base.Add(30 * time.Second)
	steps := []int32{-200_000, -1, 0, 1, 12_345, 200_000}
	rate := 71.25
	frame := vitalis.Frame{
		Envelope: vitalis.FrameV2, PatientID: patient, DeviceID: patient + "-mon", EffectiveAt: at.Format(time.RFC3339Nano),
		Observations: []vitalis.FrameObservation{
			{Seq: 1, Code: "8867-4", Unit: "/min", Value: &rate},
			{Seq: 2, Code: "131330", Unit: "mV", Waveform: &vitalis.FrameWaveform{PeriodMS: 4, SampleSteps: steps}},
		},
	}
	res, err := c.PublishVitalsBatch(ctx(t), vitalis.VitalsBatch{
		Observations: []vitalis.Observation{heartRate(patient, patient+"-spot", 1, at)},
		Frames:       []vitalis.Frame{frame},
	})
	if err != nil || res.Accepted != 3 {
		t.Fatalf("publish %+v %v", res, err)
	}
	q := vitalis.VitalsQuery{Patient: patient, From: base.Format(time.RFC3339), To: base.Add(time.Minute).Format(time.RFC3339)}
	deadline := time.Now().Add(45 * time.Second)
	var page *vitalis.VitalsPage
	for page == nil || len(page.Data) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for the frame and the observation stored: %+v", page)
		}
		time.Sleep(200 * time.Millisecond)
		if page, err = c.VitalsHistory(ctx(t), q); err != nil {
			t.Fatal(err)
		}
	}
	var rates []float64
	for _, o := range page.Data {
		switch {
		case o.Code == "131330":
			want := make([]float64, len(steps))
			for i, s := range steps {
				want[i] = float64(s) / 10_000
			}
			if o.Waveform == nil || fmt.Sprint(o.Waveform.Samples) != fmt.Sprint(want) {
				t.Fatalf("ECG samples %+v, want %v", o.Waveform, want)
			}
		case o.Value != nil:
			rates = append(rates, *o.Value)
		}
	}
	sort.Float64s(rates)
	if fmt.Sprint(rates) != "[61 71.25]" {
		t.Fatalf("heart rates %v", rates)
	}

	frame.Observations = []vitalis.FrameObservation{{Seq: 3, Code: "131330", Unit: "mV", Waveform: &vitalis.FrameWaveform{PeriodMS: 4, SampleSteps: []int32{200_001}}}}
	_, err = c.PublishVitalsBatch(ctx(t), vitalis.VitalsBatch{Frames: []vitalis.Frame{frame}})
	p, ok := vitalis.AsProblem(err)
	if !vitalis.IsValidation(err) || !ok || p.Status != 422 || !strings.Contains(fmt.Sprint(p.Body["errors"]), "observations.0.waveform.sample_steps.0") {
		t.Fatalf("want a 422 naming the step, got %v %+v", err, p)
	}
}

func waitLatest(t *testing.T, c *vitalis.Client, patient string, seq int64) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		l, err := c.LatestVitals(ctx(t), patient)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Data) == 1 && l.Data[0].Seq == seq {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for seq %d of %s: %+v", seq, patient, l)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestBadInputIsAValidationProblem(t *testing.T) {
	c := api()
	_, err := c.VitalsHistory(ctx(t), vitalis.VitalsQuery{Patient: "p", From: "yesterday", To: "today"})
	p, ok := vitalis.AsProblem(err)
	if !vitalis.IsValidation(err) || !ok || p.Status != 400 || !strings.HasSuffix(p.Type, "/"+p.Kind) {
		t.Fatalf("want 400 problem, got %v", err)
	}
	bad := heartRate("p", "d", 1, time.Now())
	bad.Unit = "bpm"
	_, err = c.PublishVitals(ctx(t), []vitalis.Observation{bad})
	if p, ok := vitalis.AsProblem(err); !ok || p.Status != 422 {
		t.Fatalf("want 422, got %v", err)
	}
}

// The harness creates free slots for a clinician of its own (VITALIS_TEST_CLINICIAN); standalone, any free slot.
func TestPatientAppointmentBookAndCancel(t *testing.T) {
	if !served(t, "/api/v1/patients/pat-0001") || !served(t, "/api/v1/appointments") {
		t.Skip("patients/appointments are not served yet (issue 5)")
	}
	c := api()
	reg, err := c.RegisterPatient(ctx(t), map[string]any{"resourceType": "Patient", "name": []map[string]any{{"family": "Go" + uid(), "given": []string{"Ada"}}}, "birthDate": "1980-02-03", "gender": "female"})
	if err != nil {
		t.Fatal(err)
	}
	record, err := c.GetPatient(ctx(t), reg.ID)
	if err != nil || record.Patient.ID != reg.ID || record.Patient.ResourceType != "Patient" {
		t.Fatalf("patient %+v %v", record, err)
	}
	if _, extended := record.Patient.Fields["allergies"]; extended {
		t.Fatalf("the FHIR Patient carries allergies: %+v", record.Patient.Fields)
	}
	p := &record.Patient
	q := url.Values{"status": {"free"}}
	if clinician := os.Getenv("VITALIS_TEST_CLINICIAN"); clinician != "" {
		q.Set("clinician", clinician)
	}
	list, err := c.ListAppointments(ctx(t), q)
	slots := list.Resources("Slot")
	if err != nil || len(slots) == 0 {
		t.Fatalf("no free slot: %+v %v", list, err)
	}
	slotID := fmt.Sprint(slots[0]["id"])
	booked, err := c.BookAppointment(ctx(t), vitalis.Booking{SlotID: slotID, PatientID: p.ID, Reason: "client library test"})
	if err != nil || booked.Status != "booked" {
		t.Fatalf("book %+v %v", booked, err)
	}
	if _, err := c.BookAppointment(ctx(t), vitalis.Booking{SlotID: slotID, PatientID: p.ID}); !vitalis.IsConflict(err) {
		t.Fatalf("second booking: want 409, got %v", err)
	}
	cancelled, err := c.CancelAppointment(ctx(t), booked.ID, "client library test")
	if err != nil || cancelled.Status != "cancelled" {
		t.Fatalf("cancel %+v %v", cancelled, err)
	}
	if _, err := c.CancelAppointment(ctx(t), booked.ID, ""); !vitalis.IsNotFound(err) {
		t.Fatalf("second cancel: want 404, got %v", err)
	}
}

// proxy forwards TCP to the gateway; dropAll cuts every open connection underneath the client.
type proxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func startProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, conns: map[net.Conn]struct{}{}}
	addr := strings.TrimPrefix(strings.TrimPrefix(target, "http://"), "https://")
	go func() {
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", addr)
			if err != nil {
				down.Close()
				continue
			}
			p.mu.Lock()
			p.conns[down], p.conns[up] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go func() { io.Copy(up, down); up.Close(); down.Close() }()
			go func() { io.Copy(down, up); up.Close(); down.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.dropAll() })
	return p
}

func (p *proxy) url() string { return "http://" + p.ln.Addr().String() }

func (p *proxy) dropAll() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.conns)
	for c := range p.conns {
		c.Close()
	}
	p.conns = map[net.Conn]struct{}{}
	return n
}

func TestListenerResumesAfterForcedDisconnect(t *testing.T) {
	if !wsServed(t, vitalis.DefaultLivePath) {
		t.Skip("the live vitals WebSocket endpoint is not served yet (issue 6)")
	}
	px := startProxy(t, baseURL)
	live := vitalis.New(px.url(), vitalis.ClientCredentials(baseURL, clientID, clientSecret))
	patient, device := "pat-go-live-"+uid(), "dev-go-"+uid()
	connected := make(chan struct{}, 8)
	l := &vitalis.Listener{Client: live, Patients: []string{patient}, OnConnect: func() { connected <- struct{}{} }}
	events := make(chan vitalis.LiveEvent, 64)
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- l.Listen(c, func(e vitalis.LiveEvent) error { events <- e; return nil })
	}()
	<-connected
	publish := func(from int64) {
		var batch []vitalis.Observation
		for i := from; i < from+10; i++ {
			batch = append(batch, heartRate(patient, device, i, time.Now()))
		}
		if _, err := api().PublishVitals(c, batch); err != nil {
			t.Fatal(err)
		}
	}
	publish(1)
	var got []vitalis.LiveEvent
	receive := func(n int) {
		for len(got) < n {
			select {
			case e := <-events:
				got = append(got, e)
			case err := <-done:
				t.Fatalf("listener stopped: %v", err)
			case <-c.Done():
				t.Fatalf("timed out with %d events", len(got))
			}
		}
	}
	receive(5)
	if px.dropAll() == 0 {
		t.Fatal("no connection to drop")
	}
	publish(11)
	receive(20)
	cancel()
	<-done
	if len(connected) < 1 {
		t.Fatal("the listener did not reconnect")
	}
	ids := map[string]bool{}
	for i, e := range got {
		if e.Observation.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: gap or duplicate", i, e.Observation.Seq)
		}
		ids[e.ID] = true
	}
	if len(ids) != 20 {
		t.Fatalf("%d distinct ids", len(ids))
	}
}

func potassium(value float64) map[string]any {
	return map[string]any{"resourceType": "Observation", "code": map[string]any{"coding": []map[string]string{{"system": "http://loinc.org", "code": "2823-3"}}},
		"valueQuantity": map[string]any{"value": value, "unit": "mmol/L", "system": "http://unitsofmeasure.org", "code": "mmol/L"}}
}

func TestDiagnosticsOrderReportAcknowledgeAmend(t *testing.T) {
	if !served(t, "/api/v1/diagnostics/orders") {
		t.Skip("diagnostics are not served yet (issue 21)")
	}
	c := api()
	reg, err := c.RegisterPatient(ctx(t), map[string]any{"resourceType": "Patient", "name": []map[string]any{{"family": "GoDx" + uid(), "given": []string{"Ada"}}}})
	if err != nil {
		t.Fatal(err)
	}
	order, err := c.OrderDiagnosticTest(ctx(t), vitalis.OrderRequest{PatientID: reg.ID, Code: "51990-0", Priority: "stat", Reason: "weakness"})
	if err != nil || order.Status != "active" {
		t.Fatalf("order %+v %v", order, err)
	}
	report := func(status string, value float64) map[string]any {
		return map[string]any{"resourceType": "DiagnosticReport", "status": status, "identifier": []map[string]string{{"system": "urn:go-test:accession", "value": order.ID}},
			"basedOn": []map[string]string{{"reference": "ServiceRequest/" + order.ID}}, "contained": []map[string]any{potassium(value)}}
	}
	prelim, err := c.PostDiagnosticReport(ctx(t), report("preliminary", 4.2))
	if err != nil || prelim.Status != "preliminary" {
		t.Fatalf("post %+v %v", prelim, err)
	}
	if _, err := c.UpdateDiagnosticReport(vitalis.WithIfMatch(ctx(t), `"9"`), prelim.ID, report("final", 6.7)); err == nil || err.(*vitalis.ProblemError).Status != 412 {
		t.Fatalf("stale If-Match: want 412, got %v", err)
	}
	final, err := c.UpdateDiagnosticReport(vitalis.WithIfMatch(ctx(t), vitalis.ETagOf(prelim)), prelim.ID, report("final", 6.7))
	if err != nil || final.Status != "final" {
		t.Fatalf("final %+v %v", final, err)
	}
	if _, err := c.ChangeDiagnosticOrder(ctx(t), order.ID, "hold", ""); !vitalis.IsConflict(err) || err.(*vitalis.ProblemError).Body["current_status"] != "completed" {
		t.Fatalf("hold a completed order: want 409 naming completed, got %v", err)
	}
	// a critical result is a signed-in clinician's to acknowledge: the suite's client (an app acting for itself) is refused
	if _, err := c.AcknowledgeCriticalResult(ctx(t), prelim.ID, "treated"); !vitalis.IsForbidden(err) ||
		!strings.HasPrefix(fmt.Sprint(err.(*vitalis.ProblemError).Body["detail"]), "A signed-in clinician must acknowledge a critical result") {
		t.Fatalf("acknowledge by an app: want 403 naming a signed-in clinician, got %v", err)
	}
	if _, err := c.AmendDiagnosticReport(ctx(t), prelim.ID, map[string]any{"status": "corrected", "reason": "haemolysis", "contained": []map[string]any{potassium(4.6)}}); err != nil {
		t.Fatal(err)
	}
	history, err := c.DiagnosticReportHistory(ctx(t), prelim.ID)
	if err != nil || len(history) != 3 || history[2].Status != "corrected" || history[2].Report.ResourceType != "DiagnosticReport" {
		t.Fatalf("history %+v %v", history, err)
	}
}
