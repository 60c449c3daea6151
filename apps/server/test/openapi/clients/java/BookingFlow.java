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
import com.partnerbooking.client.model.AvailabilityResponse;
import com.partnerbooking.client.model.Booking;
import com.partnerbooking.client.model.BookingResponse;
import com.partnerbooking.client.model.CancelBookingRequest;
import com.partnerbooking.client.model.CreateBookingRequest;
import com.partnerbooking.client.model.DayAvailability;
import com.partnerbooking.client.model.Guest;
import com.partnerbooking.client.model.Slot;
import com.partnerbooking.client.model.VenueSummary;
import com.partnerbooking.client.params.AvailabilityVariantParams;
import com.partnerbooking.client.params.BookingsCancelParams;
import com.partnerbooking.client.params.BookingsCreateParams;
import com.partnerbooking.client.params.BookingsGetParams;
import com.partnerbooking.client.params.VenuesListParams;
import java.io.IOException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
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
 * (list, availability, create, replay, read, cancel, cancel again, and a conflicting create), printed as one JSON
 * object that test/openapi/java-client.test.ts checks. Arguments: base URL, API key, venue id, variant id, date,
 * external id.
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
    // The JAX-RS client: RESTEasy with Jackson and the key on every request.
    WebTarget target =
        new ResteasyClientBuilder()
            .register(new JacksonJsonProvider(mapper))
            .register(
                (javax.ws.rs.client.ClientRequestFilter)
                    request -> request.getHeaders().putSingle("Authorization", "Bearer " + apiKey))
            .build()
            .target(baseUrl);
    VenuesApi venues = new VenuesApiImpl(target);
    AvailabilityApi availability = new AvailabilityApiImpl(target);
    BookingsApi bookings = new BookingsApiImpl(target);
    Map<String, Object> report = new LinkedHashMap<>();

    List<String> slugs = new ArrayList<>();
    for (VenueSummary venue : venues.venuesList(new VenuesListParams().pageSize(10)).getData()) {
      slugs.add(venue.getSlug());
    }
    report.put("venueSlugs", slugs);

    AvailabilityResponse.Data day =
        availability.availabilityVariant(new AvailabilityVariantParams(venueId, variantId).date(date)).getData();
    report.put("availabilityClass", day.getClass().getSimpleName());
    List<Slot> slots = ((DayAvailability) day).getSlots();
    Slot slot = slots.get(slots.size() - 1);
    report.put("slotStartAt", slot.getStartAt().toString());

    CreateBookingRequest body =
        new CreateBookingRequest()
            .variantId(variantId)
            .startAt(slot.getStartAt())
            .guest(new Guest().firstName("Claire").lastName("Martin").email("claire.martin@example.com"))
            .externalId(externalId)
            .pricePaid(new CreateBookingRequest.PricePaid().amount(new BigDecimal("120")).currency("EUR"));
    // 201: the booking is the method's return value.
    Booking created = bookings.bookingsCreate(new BookingsCreateParams(venueId), body).getData();
    report.put("created", Map.of("id", created.getId().toString(), "status", created.getStatus().value()));
    // 200 (a replay): the same return value, the same booking.
    Booking replay = bookings.bookingsCreate(new BookingsCreateParams(venueId), body).getData();
    report.put("replayId", replay.getId().toString());

    String byExternalId = "ext:" + externalId;
    report.put("readId", bookings.bookingsGet(new BookingsGetParams(byExternalId)).getData().getId().toString());

    BookingResponse cancelled =
        bookings.bookingsCancel(
            new BookingsCancelParams(byExternalId), new CancelBookingRequest().reason("Guest changed plans"));
    report.put("cancelledStatus", cancelled.getData().getStatus().value());

    try {
      bookings.bookingsCancel(new BookingsCancelParams(byExternalId), new CancelBookingRequest().reason("Again"));
      report.put("cancelAgain", "no exception");
    } catch (BookingsApi.BookingsCancel422Exception e) {
      report.put("cancelAgain", Map.of("exception", "BookingsCancel422Exception", "error", e.getEntity().getError().value()));
    }

    // The slot again under another external id, while the first booking holds it: 409, slot_unavailable.
    Booking holder =
        bookings.bookingsCreate(new BookingsCreateParams(venueId), body.externalId(externalId + "-holder")).getData();
    try {
      bookings.bookingsCreate(new BookingsCreateParams(venueId), body.externalId(externalId + "-conflict"));
      report.put("conflict", "no exception");
    } catch (BookingsApi.BookingsCreate409Exception e) {
      Object entity = e.getEntity();
      Object error = entity.getClass().getMethod("getError").invoke(entity);
      report.put(
          "conflict",
          Map.of("exception", "BookingsCreate409Exception", "entity", entity.getClass().getSimpleName(), "error", error.toString()));
    }
    bookings.bookingsCancel(
        new BookingsCancelParams(holder.getId().toString()), new CancelBookingRequest().reason("Test over"));

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
