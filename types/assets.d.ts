declare module '*.css';
/** A file's text (Vite's `?raw`): tests read their stylesheets so. */
declare module '*?raw' {
  const text: string;
  export default text;
}
