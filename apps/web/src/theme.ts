import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type MantineColorsTuple,
  ScrollArea,
} from '@mantine/core';

// Every text of the light scheme reaches WCAG AA contrast, 4.5:1 (issue 15). Mantine's default
// light scheme does not: muted grey (gray.6) on white is 3.3:1, white on a filled blue.6 button
// 3.6:1, the yellow of a light badge on its own tint 2.7:1. Rather than pick shades by eye, each
// colour's text shades are worked out below from the palette: the lightest shade that passes on
// every background it is drawn on (white, the grey of striped and hovered rows, its own tint),
// darkened a little further where even shade 9 does not.

const MIN_CONTRAST = 4.5;
// A little over the minimum, so rounding in a browser's colour maths never tips a pair under.
const TARGET = MIN_CONTRAST + 0.1;

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};
const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const darken = (hex: string, amount: number) => hexOf(rgbOf(hex).map((c) => c * (1 - amount)) as Rgb);

/** The lightest of `candidates` readable on every background, else the last one darkened until it is. */
export function readable(candidates: string[], backgrounds: string[]): string {
  const passes = (c: string) => backgrounds.every((bg) => contrast(c, bg) >= TARGET);
  const found = candidates.find(passes);
  if (found) return found;
  let color = candidates[candidates.length - 1] as string;
  for (let step = 0; step < 40 && !passes(color); step++) color = darken(color, 0.03);
  return color;
}

const gray = DEFAULT_THEME.colors.gray;
const WHITE = '#ffffff';
// Where text sits in this app: the page and cards (white), striped and hovered table rows, the
// default button (gray.0 to gray.1).
const SURFACES = [WHITE, gray[0], gray[1]];

/** The accessible light-scheme shades of one colour. */
export function accessibleShades(shades: MantineColorsTuple) {
  const from6 = shades.slice(6);
  // A filled button or badge carries white text.
  const filled = readable(from6, [WHITE]);
  return {
    filled,
    filledHover: darken(filled, 0.1),
    // Text in the colour (c="red", anchors, outline and subtle buttons) on the app's surfaces and
    // on the colour's own light tint, which subtle buttons show on hover.
    text: readable(from6, [...SURFACES, shades[0], shades[1]]),
    // The light variant: text on the colour's tint (shade 1) and its hover (shade 2).
    lightColor: readable(shades.slice(7), [shades[1], shades[2]]),
  };
}

// Muted text (c="dimmed", input descriptions): the lightest grey that passes on every surface.
export const DIMMED = readable([gray[6], '#7a828a', '#6f777f', '#666e76', gray[7]], SURFACES);

const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = { '--mantine-color-dimmed': DIMMED };
  for (const [name, shades] of Object.entries(theme.colors)) {
    const s = accessibleShades(shades);
    light[`--mantine-color-${name}-filled`] = s.filled;
    light[`--mantine-color-${name}-filled-hover`] = s.filledHover;
    light[`--mantine-color-${name}-text`] = s.text;
    light[`--mantine-color-${name}-outline`] = s.text;
    light[`--mantine-color-${name}-light-color`] = s.lightColor;
  }
  // The anchor colour follows the primary colour's text.
  light['--mantine-color-anchor'] = accessibleShades(
    theme.colors[theme.primaryColor] as MantineColorsTuple,
  ).text;
  // Field errors and required asterisks (Mantine draws them in red 6, 3.3:1 on white) read as text.
  light['--mantine-color-error'] = accessibleShades(theme.colors.red as MantineColorsTuple).text;
  return { variables: {}, light, dark: {} };
};

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  components: {
    // A region that scrolls is reachable by keyboard (Tab, then the arrow keys), as WCAG asks.
    ScrollArea: ScrollArea.extend({ defaultProps: { viewportProps: { tabIndex: 0 } } }),
    ScrollAreaAutosize: ScrollArea.Autosize.extend({ defaultProps: { viewportProps: { tabIndex: 0 } } }),
  },
});

export const themeVariables = cssVariablesResolver;
