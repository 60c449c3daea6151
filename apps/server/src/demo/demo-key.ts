/**
 * Maisons Lumière's dashboard key in demo-data.json (all six scopes), the one the README's commands use. A module
 * of its own: the CLI's keys command needs the constant, not the seeder and the importer behind it.
 */
export const DEMO_KEY_ID = 'de0000000001';

/** Its test-mode twin (`sk_test_`, same scopes): the key the testing guide uses. */
export const DEMO_TEST_KEY_ID = 'de0000000010';
