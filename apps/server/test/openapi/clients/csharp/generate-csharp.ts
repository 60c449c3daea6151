import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * NSwag 14 (the `nswag` npm package) ships a .NET Framework build (`Win`) beside its .NET 8-10 ones; Debian's Mono
 * runs it, as it runs the client it writes, compiled by Mono's C# compiler against NSwag's own Newtonsoft.Json 13
 * (Debian's libnewtonsoft-json is 6, older than what the generated code asks for).
 */
const NSWAG = fileURLToPath(new URL('../../../../node_modules/nswag/bin/binaries/Win/', import.meta.url));
const NEWTONSOFT = join(NSWAG, 'Newtonsoft.Json.dll');

/** The Debian packages the C# client needs (.ci/run installs them): Mono's runtime, compiler and class libraries. */
export const MONO_PACKAGES = ['mono-devel'];

export const BOOKING_FLOW = fileURLToPath(new URL('BookingFlow.cs', import.meta.url));

/**
 * Generates the C# client of the document with NSwag's defaults (one class, `PartnerBookingClient`, Newtonsoft),
 * as a partner would with `nswag openapi2csclient`, and compiles it with `program` into `folder/BookingFlow.exe`,
 * beside the Newtonsoft.Json.dll it loads at run time.
 */
export function buildCsharpClient(documentPath: string, program: string, folder: string): string {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const client = join(folder, 'PartnerBookingClient.cs');
  execFileSync(
    'mono',
    [
      join(NSWAG, 'NSwag.exe'),
      'openapi2csclient',
      `/input:${documentPath}`,
      `/output:${client}`,
      '/namespace:PartnerBooking.Client',
      '/className:PartnerBookingClient',
    ],
    { stdio: 'pipe' },
  );
  copyFileSync(NEWTONSOFT, join(folder, 'Newtonsoft.Json.dll'));
  const exe = join(folder, 'BookingFlow.exe');
  execFileSync(
    'mcs',
    [
      `-out:${exe}`,
      '-nowarn:0162,0618,0612,1635',
      `-r:${NEWTONSOFT}`,
      '-r:System.Net.Http.dll',
      '-r:System.ComponentModel.DataAnnotations.dll',
      '-r:System.Runtime.Serialization.dll',
      client,
      program,
    ],
    { stdio: 'pipe' },
  );
  return exe;
}
