/** Themes: the template's tweakable variables and the Template screen's state (GET and PUT /api/themes). */

export type TweakType = 'color' | 'font' | 'dropdown' | 'checkbox' | 'value';

export interface Tweak {
  /** The LESS variable's name without '@'. */
  name: string;
  type: TweakType;
  title: string;
  category: string;
  default: string;
  options: string[];
  min: number | null;
  max: number | null;
  step: number | null;
  unit: string;
}

/** A tweak with the value the site has chosen (or its default). */
export type TweakView = Tweak & { value: string };

export interface ThemesState {
  theme: string;
  themes: Array<{ id: string; name: string }>;
  tweaks: TweakView[];
  layouts: Array<{ id: string; name: string }>;
  pages: Array<{ id: string; title: string; layout: string }>;
}
