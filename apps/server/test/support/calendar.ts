/** Every day of the week, in the API's numbering (0 = Sunday): the tests', benches' and scripts' one copy. */
export const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
