/** The fix advice lives with the catalogue (@siteaudit/schema): the reports and the recommendations read share it. */
export { axisFix, fixFor } from '@siteaudit/schema';
