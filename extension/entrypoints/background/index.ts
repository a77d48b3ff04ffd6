export default defineBackground(() => {
  // The relay connection arrives with the local-mode issue; the worker exists so the build is real.
});
