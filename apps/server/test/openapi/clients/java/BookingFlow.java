import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.jaxrs.json.JacksonJsonProvider;
import com.partnerbooking.client.BookingsApi;
import com.partnerbooking.client.VenuesApi;
import com.partnerbooking.client.AvailabilityApi;
import com.partnerbooking.client.impl.AvailabilityApiImpl;
import com.partnerbooking.client.impl.BookingsApiImpl;
import com.partnerbooking.client.impl.VenuesApiImpl;
import com.partnerbooking.client.model.Availability;
import com.partnerbooking.client.model.Booking;
import com.partnerbooking.client.model.BookingResponse;
import com.partnerbooking.client.model.CancelBookingRequest;
import com.partnerbooking.client.model.CreateBookingRequest;
import com.partnerbooking.client.model.DayAvailability;
import com.partnerbooking.client.model.Guest;
import com.partnerbooking.client.model.Money;
import com.partnerbooking.client.model.RangeAvailability;
import com.partnerbooking.client.model.Slot;
import com.partnerbooking.client.model.VenueSummary;
import com.partnerbooking.client.params.GetVariantAvailabilityParams;
import com.partnerbooking.client.params.ListVenuesParams;
import java.io.IOException;
import java.lang.reflect.Method;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import javax.ws.rs.client.WebTarget;
import org.jboss.resteasy.client.jaxrs.ResteasyClientBuilder;

/**
 * A partner's Java program over the client openapi-generator-plus generates from docs/openapi.json: the booking flow
 * (list, availability of a day and of a range, create, replay, read, cancel, cancel again, a conflicting create, a
 * 404 for an unknown variant) and a booking with values its enums do not list, read from a second server, printed
 * as one JSON object that test/openapi/java-client.test.ts checks. Arguments: base URL, API key, venue id, variant
 * id, date, external id, the error schema names, and the base URL of the server that answers the new values.
 */
public final class BookingFlow {
  public static void main(String[] args) throws Exception {
    String baseUrl = args[0];
    String apiKey = args[1];
    String venueId = args[2];
    UUID variantId = UUID.fromString(args[3]);
    LocalDate date = LocalDate.parse(args[4]);
    String externalId = args[5];

    ObjectMapper mapper = mapper();
    WebTarget target = target(baseUrl, apiKey, mapper);
    VenuesApi venues = new VenuesApiImpl(target);
    AvailabilityApi availability = new AvailabilityApiImpl(target);
    BookingsApi bookings = new BookingsApiImpl(target);
    Map<String, Object> report = new LinkedHashMap<>();

    List<String> slugs = new ArrayList<>();
    for (VenueSummary venue : venues.listVenues(new ListVenuesParams().pageSize(10)).getData()) {
      slugs.add(venue.getSlug());
    }
    report.put("venueSlugs", slugs);

    Availability day =
        availability.getVariantAvailability(new GetVariantAvailabilityParams(venueId, variantId).date(date)).getData();
    report.put("availabilityClass", day.getClass().getSimpleName());
    Availability range =
        availability
            .getVariantAvailability(new GetVariantAvailabilityParams(venueId, variantId).from(date).to(date.plusDays(2)))
            .getData();
    report.put(
        "range",
        Map.of("class", range.getClass().getSimpleName(), "days", ((RangeAvailability) range).getDays().size()));
    List<Slot> slots = ((DayAvailability) day).getSlots();
    Slot slot = slots.get(slots.size() - 1);
    report.put("slotStartAt", slot.getStartAt().toString());

    CreateBookingRequest body =
        new CreateBookingRequest()
            .variantId(variantId)
            .startAt(slot.getStartAt())
            .guest(new Guest().firstName("Claire").lastName("Martin").email("claire.martin@example.com"))
            .externalId(externalId)
            .pricePaid(new Money().amount(120).currency("EUR"));
    // 201: the booking is the method's return value.
    Booking created = bookings.createBooking(venueId, body).getData();
    report.put("created", Map.of("id", created.getId().toString(), "status", created.getStatus()));
    // 200 (a replay): the same return value, the same booking.
    Booking replay = bookings.createBooking(venueId, body).getData();
    report.put("replayId", replay.getId().toString());

    String byExternalId = "ext:" + externalId;
    report.put("readId", bookings.getBooking(byExternalId).getData().getId().toString());

    BookingResponse cancelled =
        bookings.cancelBooking(byExternalId, new CancelBookingRequest().reason("Guest changed plans"));
    report.put("cancelledStatus", cancelled.getData().getStatus());

    try {
      bookings.cancelBooking(byExternalId, new CancelBookingRequest().reason("Again"));
      report.put("cancelAgain", "no exception");
    } catch (BookingsApi.CancelBooking422Exception e) {
      report.put("cancelAgain", Map.of("exception", "CancelBooking422Exception", "error", String.valueOf(e.getEntity().getError())));
    }

    // The slot again under another external id, while the first booking holds it: 409, slot_unavailable.
    Booking holder = bookings.createBooking(venueId, body.externalId(externalId + "-holder")).getData();
    try {
      bookings.createBooking(venueId, body.externalId(externalId + "-conflict"));
      report.put("conflict", "no exception");
    } catch (BookingsApi.CreateBooking409Exception e) {
      Object entity = e.getEntity();
      Object error = entity.getClass().getMethod("getError").invoke(entity);
      report.put(
          "conflict",
          Map.of("exception", "CreateBooking409Exception", "entity", entity.getClass().getSimpleName(), "error", error.toString()));
    }
    bookings.cancelBooking(holder.getId().toString(), new CancelBookingRequest().reason("Test over"));

    // A 404 of a route with two 404 bodies: the base (NotFoundError) picks VariantNotFoundError by `error`.
    try {
      availability.getVariantAvailability(new GetVariantAvailabilityParams(venueId, UUID.randomUUID()).date(date));
      report.put("unknownVariant", "no exception");
    } catch (AvailabilityApi.GetVariantAvailability404Exception e) {
      Object entity = e.getEntity();
      Object error = entity.getClass().getMethod("getError").invoke(entity);
      report.put(
          "unknownVariant",
          Map.of("entity", entity.getClass().getSimpleName(), "error", error.toString(), "requestId", e.getEntity().getRequestId()));
    }

    // A booking whose status, client_type and payment_status are values this client was generated without.
    Booking future = new BookingsApiImpl(target(args[7], apiKey, mapper)).getBooking(created.getId().toString()).getData();
    report.put(
        "newValues",
        Map.of("status", future.getStatus(), "clientType", future.getClientType(), "paymentStatus", future.getPaymentStatus()));

    // Which generated error classes expose `error`.
    List<String> withError = new ArrayList<>();
    List<String> withoutError = new ArrayList<>();
    for (String name : args[6].split(",")) {
      Class<?> type = Class.forName("com.partnerbooking.client.model." + name);
      boolean has = false;
      for (Method method : type.getMethods()) has |= method.getName().equals("getError");
      (has ? withError : withoutError).add(name);
    }
    report.put("errorClassesWithError", withError);
    report.put("errorClassesWithoutError", withoutError);

    System.out.println(mapper.writeValueAsString(report));
  }

  /** The JAX-RS client: RESTEasy with Jackson and the key on every request. */
  private static WebTarget target(String baseUrl, String apiKey, ObjectMapper mapper) {
    return new ResteasyClientBuilder()
        .register(new JacksonJsonProvider(mapper))
        .register(
            (javax.ws.rs.client.ClientRequestFilter)
                request -> request.getHeaders().putSingle("Authorization", "Bearer " + apiKey))
        .build()
        .target(baseUrl);
  }

  /**
   * Jackson for the generated models. Debian packages neither jackson-datatype-jsr310 nor -jdk8 (which the
   * generator's ApiProviders registers), so the three java.time types are read and written through their ISO forms
   * here, and java.util.Optional (the client's nullable fields) as its value or null; unknown properties are ignored
   * (the document lets a minor version add fields).
   */
  private static ObjectMapper mapper() {
    SimpleModule time = new SimpleModule("java-time-iso");
    iso(time, OffsetDateTime.class, OffsetDateTime::parse, value -> value.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    iso(time, LocalDate.class, LocalDate::parse, LocalDate::toString);
    iso(time, LocalTime.class, LocalTime::parse, value -> value.format(DateTimeFormatter.ISO_LOCAL_TIME));
    time.addDeserializer(Optional.class, new OptionalDeserializer(null));
    time.addSerializer(
        Optional.class,
        new JsonSerializer<Optional>() {
          @Override
          public void serialize(Optional value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            if (value.isPresent()) provider.defaultSerializeValue(value.get(), generator);
            else generator.writeNull();
          }
        });
    return new ObjectMapper()
        .registerModule(time)
        .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  }

  private static <T> void iso(SimpleModule module, Class<T> type, Function<String, T> parse, Function<T, String> format) {
    module.addDeserializer(
        type,
        new JsonDeserializer<T>() {
          @Override
          public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            return parse.apply(parser.getValueAsString());
          }
        });
    module.addSerializer(
        type,
        new JsonSerializer<T>() {
          @Override
          public void serialize(T value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeString(format.apply(value));
          }
        });
  }

  /** An Optional<T> field: reads T with the field's own type argument, a JSON null as Optional.empty(). */
  private static final class OptionalDeserializer extends JsonDeserializer<Optional<?>> implements ContextualDeserializer {
    private final JavaType valueType;

    OptionalDeserializer(JavaType valueType) {
      this.valueType = valueType;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
      JavaType type = property != null ? property.getType() : context.getContextualType();
      return new OptionalDeserializer(type.containedTypeOrUnknown(0));
    }

    @Override
    public Optional<?> deserialize(JsonParser parser, DeserializationContext context) throws IOException {
      return Optional.ofNullable(context.readValue(parser, valueType));
    }

    @Override
    public Optional<?> getNullValue(DeserializationContext context) {
      return Optional.empty();
    }
  }
}
