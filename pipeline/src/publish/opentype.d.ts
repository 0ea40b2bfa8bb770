// Types for the part of opentype.js 2.0 the charts use: the package ships none, and @types/opentype.js describes 1.x.
declare module 'opentype.js' {
  export interface RenderOptions {
    /** pair kerning from the font's GPOS or kern table (opentype.js's default is on) */
    kerning?: boolean;
  }

  export interface PathDataOptions {
    decimalPlaces?: number;
    /** drops redundant points; off by default here: it deep-copies every command */
    optimize?: boolean;
    /** true (the default for an options object) mirrors the outline inside its own bounding box */
    flipY?: boolean;
  }

  /** One drawing command in pixels: M and L carry x, y; Q adds x1, y1; C adds x1, y1, x2, y2; Z none. */
  export interface PathCommand {
    type: 'M' | 'L' | 'Q' | 'C' | 'Z';
    x?: number;
    y?: number;
    x1?: number;
    y1?: number;
    x2?: number;
    y2?: number;
  }

  export interface Path {
    commands: PathCommand[];
    toPathData(options?: PathDataOptions): string;
  }

  export interface Font {
    unitsPerEm: number;
    ascender: number;
    descender: number;
    tables: { hhea: { lineGap: number } };
    /** outline of `text` with its pen starting at (x, baseline y), y down as in SVG */
    getPath(text: string, x: number, y: number, fontSize: number, options?: RenderOptions): Path;
    getAdvanceWidth(text: string, fontSize: number, options?: RenderOptions): number;
  }

  export function parse(buffer: ArrayBuffer | ArrayBufferView): Font;

  const opentype: { parse: typeof parse };
  export default opentype;
}
