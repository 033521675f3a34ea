/*
 * An independent FHIR R4 validator for the test suite: HAPI FHIR's FhirInstanceValidator with the
 * R4 base StructureDefinitions (hapi-fhir-validation-resources-r4, offline), behind a tiny HTTP
 * server on 127.0.0.1. Vitalis itself never runs this; test/helpers/fhir-validator.ts starts it.
 *
 *   java -cp 'libs/*:target/classes' FhirValidatorServer [port] [--port-file F] [--parent-pid P]
 *
 *   POST /validate[?profile=URL&profile=URL...]  body: one resource or a JSON array of resources
 *     200 [{ "index": 0, "issues": [{ "severity", "location", "message", "messageId" }] }, ...]
 *   GET /health  200 "ok"
 *
 * Port 0 (the default) binds an ephemeral port; it is written to --port-file once the validator
 * has validated a warm-up Observation against the vital-signs profile (the first validation loads
 * and snapshots the definitions, which takes seconds), so a written port means "ready". With
 * --parent-pid the server exits when that process is gone (a test run that died leaves nothing).
 */
import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.context.support.DefaultProfileValidationSupport;
import ca.uhn.fhir.validation.FhirValidator;
import ca.uhn.fhir.validation.SingleValidationMessage;
import ca.uhn.fhir.validation.ValidationOptions;
import ca.uhn.fhir.validation.ValidationResult;
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.hl7.fhir.common.hapi.validation.support.CommonCodeSystemsTerminologyService;
import org.hl7.fhir.common.hapi.validation.support.InMemoryTerminologyServerValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.SnapshotGeneratingValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.ValidationSupportChain;
import org.hl7.fhir.common.hapi.validation.validator.FhirInstanceValidator;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

public final class FhirValidatorServer {
  private static final String WARM_UP = "{\"resourceType\":\"Observation\",\"status\":\"final\","
      + "\"category\":[{\"coding\":[{\"system\":\"http://terminology.hl7.org/CodeSystem/observation-category\",\"code\":\"vital-signs\"}]}],"
      + "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"8867-4\"}]},\"subject\":{\"reference\":\"Patient/p1\"},"
      + "\"effectiveDateTime\":\"2026-01-01T00:00:00Z\",\"valueQuantity\":{\"value\":72,\"unit\":\"beats/minute\",\"system\":\"http://unitsofmeasure.org\",\"code\":\"/min\"}}";

  private final FhirContext ctx = FhirContext.forR4();
  private final FhirValidator validator;
  private final Gson gson = new Gson();

  private FhirValidatorServer() {
    ValidationSupportChain chain = new ValidationSupportChain(
        new DefaultProfileValidationSupport(ctx),
        new CommonCodeSystemsTerminologyService(ctx),
        new InMemoryTerminologyServerValidationSupport(ctx),
        new SnapshotGeneratingValidationSupport(ctx));
    FhirInstanceValidator instanceValidator = new FhirInstanceValidator(chain);
    // Offline there is no server to resolve `Type/id` references against: take REST references as
    // existing, so their TYPE is still checked against the element's allowed targets (a
    // Slot.schedule pointing at a Practitioner is an error), which the default skips.
    instanceValidator.setAssumeValidRestReferences(true);
    validator = ctx.newValidator();
    validator.registerValidatorModule(instanceValidator);
  }

  /** One resource's issues; synchronized: the HAPI validator is shared and its caches are warm. */
  private synchronized JsonArray validate(String resource, List<String> profiles) {
    ValidationOptions options = new ValidationOptions();
    for (String p : profiles) options.addProfile(p);
    ValidationResult result = validator.validateWithResult(resource, options);
    JsonArray issues = new JsonArray();
    for (SingleValidationMessage m : result.getMessages()) {
      JsonObject issue = new JsonObject();
      issue.addProperty("severity", m.getSeverity().getCode());
      issue.addProperty("location", m.getLocationString());
      issue.addProperty("message", m.getMessage());
      if (m.getMessageId() != null) issue.addProperty("messageId", m.getMessageId());
      issues.add(issue);
    }
    return issues;
  }

  private void handleValidate(HttpExchange ex) throws IOException {
    if (!"POST".equals(ex.getRequestMethod())) {
      send(ex, 405, "{\"error\":\"POST a resource or an array of resources\"}");
      return;
    }
    List<String> profiles = new ArrayList<>();
    String query = ex.getRequestURI().getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0 && pair.substring(0, eq).equals("profile")) profiles.add(URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    JsonElement parsed;
    try {
      parsed = JsonParser.parseString(body);
    } catch (RuntimeException e) {
      send(ex, 400, "{\"error\":\"body is not JSON\"}");
      return;
    }
    List<JsonElement> resources = new ArrayList<>();
    if (parsed.isJsonArray()) parsed.getAsJsonArray().forEach(resources::add);
    else resources.add(parsed);
    JsonArray out = new JsonArray();
    for (int i = 0; i < resources.size(); i++) {
      JsonObject r = new JsonObject();
      r.addProperty("index", i);
      try {
        r.add("issues", validate(gson.toJson(resources.get(i)), profiles));
      } catch (RuntimeException e) {
        // HAPI throws on input it cannot parse at all (e.g. no resourceType): report it as an issue
        JsonArray issues = new JsonArray();
        JsonObject issue = new JsonObject();
        issue.addProperty("severity", "fatal");
        issue.addProperty("location", "");
        issue.addProperty("message", String.valueOf(e.getMessage()));
        issues.add(issue);
        r.add("issues", issues);
      }
      out.add(r);
    }
    send(ex, 200, gson.toJson(out));
  }

  private static void send(HttpExchange ex, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("content-type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(bytes);
    }
  }

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(System.getenv().getOrDefault("FHIR_VALIDATOR_PORT", "0"));
    Path portFile = null;
    long parentPid = -1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port-file" -> portFile = Path.of(args[++i]);
        case "--parent-pid" -> parentPid = Long.parseLong(args[++i]);
        default -> port = Integer.parseInt(args[i]);
      }
    }
    FhirValidatorServer server = new FhirValidatorServer();
    long t0 = System.nanoTime();
    JsonArray warm = server.validate(WARM_UP, List.of("http://hl7.org/fhir/StructureDefinition/vitalsigns", "http://hl7.org/fhir/StructureDefinition/heartrate"));
    System.err.printf("fhir-validator: warmed up in %.1f s (%d issues on the sample)%n", (System.nanoTime() - t0) / 1e9, warm.size());

    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
    http.createContext("/validate", ex -> {
      try {
        server.handleValidate(ex);
      } catch (RuntimeException e) {
        send(ex, 500, server.gson.toJson(java.util.Map.of("error", String.valueOf(e))));
      }
    });
    http.createContext("/health", ex -> send(ex, 200, "\"ok\""));
    http.setExecutor(Executors.newFixedThreadPool(2));
    http.start();
    int bound = http.getAddress().getPort();
    System.err.println("fhir-validator: listening on 127.0.0.1:" + bound);
    if (portFile != null) {
      // written atomically: a reader never sees half a port
      Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
      Files.writeString(tmp, Integer.toString(bound));
      Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE);
    }
    if (parentPid > 0) {
      final long watched = parentPid;
      Thread watchdog = new Thread(() -> {
        while (ProcessHandle.of(watched).map(ProcessHandle::isAlive).orElse(false)) {
          try {
            Thread.sleep(2_000);
          } catch (InterruptedException e) {
            return;
          }
        }
        System.err.println("fhir-validator: parent " + watched + " is gone; exiting");
        System.exit(0);
      });
      watchdog.setDaemon(true);
      watchdog.start();
    }
  }
}
