import { expect } from 'vitest';
import type { WatchedPage } from './browser.js';
import type { World } from './world.js';

export const PASSWORD = 'correct horse battery staple';

/** An invitation made by the operator CLI (`pnpm spa users invite`): the URL it prints. */
export async function inviteByCli(world: World, args: string[]): Promise<string> {
  const output = await world.spa('users', 'invite', ...args);
  const url = /https?:\/\/\S+\/dashboard\/invitations\/\S+/.exec(output)?.[0];
  expect(url, `users invite printed no invitation URL: ${output}`).toBeDefined();
  return url!;
}

/** Opens the invitation, chooses the password, and lands on sign-in with the email filled in. */
export async function acceptInvitation(watched: WatchedPage, url: string): Promise<void> {
  const { page } = watched;
  await page.goto(url);
  await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
  await page.getByText('Choose a password to finish').waitFor();
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your password is set').waitFor();
}

export async function signIn(watched: WatchedPage, email: string): Promise<void> {
  const { page } = watched;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** A person invited by the CLI, signed in in a browser context of their own. */
export async function signedInPerson(watched: WatchedPage, world: World, email: string, inviteArgs: string[]) {
  const url = await inviteByCli(world, ['--email', email, ...inviteArgs]);
  await acceptInvitation(watched, url);
  await signIn(watched, email);
}

/** The navigation link of a section. */
export function nav(watched: WatchedPage, name: string) {
  return watched.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });
}
