// Prints the code block of a README that follows the marker `<!-- example: NAME -->`, so tests run the README as written.
import { readFileSync } from 'node:fs';

const [file, name] = process.argv.slice(2);
const text = readFileSync(file, 'utf8');
const match = new RegExp(`<!-- example: ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(text);
if (!match) {
  console.error(`${file} has no code block marked <!-- example: ${name} -->`);
  process.exit(1);
}
process.stdout.write(match[1]);
