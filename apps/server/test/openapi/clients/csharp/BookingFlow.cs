using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Threading.Tasks;
using Newtonsoft.Json;
using PartnerBooking.Client;

/// <summary>
/// A partner's C# program over the client NSwag generates from docs/openapi.json: the booking flow (list,
/// availability of a day and of a range, create, replay, read, cancel, cancel again), a 409 and a 404 read as typed
/// error bodies, and a booking with values its enums do not list, read from a second server. Prints one JSON object
/// that test/openapi/csharp-client.test.ts checks. Arguments: base URL, API key, venue id, variant id, date, external
/// id, base URL of the server that answers the new values, a 409 duplicate_external_id body.
/// </summary>
public static class BookingFlow
{
    public static int Main(string[] args)
    {
        var report = Run(args).GetAwaiter().GetResult();
        Console.WriteLine(JsonConvert.SerializeObject(report));
        return 0;
    }

    private static PartnerBookingClient Client(string baseUrl, string apiKey)
    {
        var http = new HttpClient();
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", apiKey);
        return new PartnerBookingClient(http) { BaseUrl = baseUrl };
    }

    private static async Task<Dictionary<string, object>> Run(string[] args)
    {
        string apiKey = args[1], venueId = args[2], externalId = args[5];
        var variantId = Guid.Parse(args[3]);
        var date = DateTimeOffset.Parse(args[4] + "T00:00:00Z");
        var client = Client(args[0], apiKey);
        var report = new Dictionary<string, object>();

        report["defaultBaseUrl"] = new PartnerBookingClient(new HttpClient()).BaseUrl;
        var venues = await client.ListVenuesAsync(null, 10);
        report["venueSlugs"] = venues.Data.Select(venue => venue.Slug).ToList();

        // The answer is typed as the base Availability; `mode` made Newtonsoft build the subclass.
        var day = (await client.GetVariantAvailabilityAsync(venueId, variantId, date, null, null, null)).Data;
        report["availabilityClass"] = day.GetType().Name;
        var range = (await client.GetVariantAvailabilityAsync(venueId, variantId, null, date, date.AddDays(2), null)).Data;
        report["range"] = new Dictionary<string, object> {
            ["class"] = range.GetType().Name,
            ["days"] = ((RangeAvailability)range).Days.Count,
        };
        var slots = ((DayAvailability)day).Slots.ToList();
        var slot = slots[slots.Count - 2];

        var body = new CreateBookingRequest {
            Variant_id = variantId,
            Start_at = slot.Start_at,
            Guest = new Guest { First_name = "Claire", Last_name = "Martin", Email = "claire.martin@example.com" },
            External_id = externalId,
            Price_paid = new Money { Amount = 120, Currency = "EUR" },
        };
        var created = (await client.CreateBookingAsync(venueId, body)).Data;
        report["created"] = new Dictionary<string, object> { ["id"] = created.Id.ToString(), ["status"] = created.Status };
        report["replayId"] = (await client.CreateBookingAsync(venueId, body)).Data.Id.ToString();
        report["readId"] = (await client.GetBookingAsync("ext:" + externalId)).Data.Id.ToString();
        var cancelled = await client.CancelBookingAsync("ext:" + externalId, new CancelBookingRequest { Reason = "Guest changed plans" });
        report["cancelledStatus"] = cancelled.Data.Status;
        try
        {
            await client.CancelBookingAsync("ext:" + externalId, new CancelBookingRequest { Reason = "Again" });
            report["cancelAgain"] = "no exception";
        }
        catch (ApiException<BookingAlreadyCancelledError> e)
        {
            report["cancelAgain"] = new Dictionary<string, object> { ["status"] = e.StatusCode, ["error"] = e.Result.Error.ToString() };
        }

        // The slot again under another external id while a booking holds it: 409, its base picks the subclass.
        body.External_id = externalId + "-holder";
        var holder = (await client.CreateBookingAsync(venueId, body)).Data;
        try
        {
            body.External_id = externalId + "-conflict";
            await client.CreateBookingAsync(venueId, body);
            report["conflict"] = "no exception";
        }
        catch (ApiException<ConflictError> e)
        {
            var entity = e.Result as SlotUnavailableError;
            report["conflict"] = new Dictionary<string, object> {
                ["status"] = e.StatusCode,
                ["class"] = e.Result.GetType().Name,
                ["error"] = entity == null ? null : entity.Error.ToString(),
                ["requestId"] = e.Result.Request_id,
            };
        }
        await client.CancelBookingAsync(holder.Id.ToString(), new CancelBookingRequest { Reason = "Test over" });

        // A 404 of a route with two 404 bodies: an unknown variant is a VariantNotFoundError, not a venue's.
        try
        {
            await client.GetVariantAvailabilityAsync(venueId, Guid.NewGuid(), date, null, null, null);
            report["unknownVariant"] = "no exception";
        }
        catch (ApiException<NotFoundError> e)
        {
            var entity = e.Result as VariantNotFoundError;
            report["unknownVariant"] = new Dictionary<string, object> {
                ["status"] = e.StatusCode,
                ["class"] = e.Result.GetType().Name,
                ["error"] = entity == null ? null : entity.Error.ToString(),
                ["requestId"] = e.Result.Request_id,
            };
        }

        // The other 409 body (a first request with this external_id still in flight), as the server writes it: the
        // generated converter reads it through the base too.
        var duplicate = JsonConvert.DeserializeObject<ConflictError>(args[7]);
        report["duplicate"] = new Dictionary<string, object> {
            ["class"] = duplicate.GetType().Name,
            ["error"] = duplicate is DuplicateExternalIdError ? ((DuplicateExternalIdError)duplicate).Error.ToString() : null,
        };

        // A booking whose status, client_type and payment_status this client was generated without.
        var future = (await Client(args[6], apiKey).GetBookingAsync(created.Id.ToString())).Data;
        report["newValues"] = new Dictionary<string, object> {
            ["status"] = future.Status,
            ["clientType"] = future.Client_type,
            ["paymentStatus"] = future.Payment_status,
        };
        return report;
    }
}
