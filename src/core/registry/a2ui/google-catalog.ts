/**
 * The components of Google A2UI v0.9's basic catalog, as property tables: which properties each
 * component has, which are required, and their kinds (Dynamic values, component references,
 * actions, enumerations). Written from the catalog's published definition; the one catalog
 * skillctl checks against.
 */
import { arrayOf, literal, nonEmptyString, objectOf, oneOf, type PropTable } from './props.js';
import { action, checkRule, childList, componentRef, dynamic, type Refs } from './google-values.js';

export const BASIC_CATALOG_ID = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

const ICON_NAMES = [
  'accountCircle', 'add', 'arrowBack', 'arrowForward', 'attachFile', 'calendarToday', 'call', 'camera', 'check', 'close', 'delete',
  'download', 'edit', 'event', 'error', 'fastForward', 'favorite', 'favoriteOff', 'folder', 'help', 'home', 'info', 'locationOn',
  'lock', 'lockOpen', 'mail', 'menu', 'moreVert', 'moreHoriz', 'notificationsOff', 'notifications', 'pause', 'payment', 'person',
  'phone', 'photo', 'play', 'print', 'refresh', 'rewind', 'search', 'send', 'settings', 'share', 'shoppingCart', 'skipNext',
  'skipPrevious', 'star', 'starHalf', 'starOff', 'stop', 'upload', 'visibility', 'visibilityOff', 'volumeDown', 'volumeMute',
  'volumeOff', 'volumeUp', 'warning',
];
const JUSTIFY = ['center', 'end', 'spaceAround', 'spaceBetween', 'spaceEvenly', 'start', 'stretch'];
const ALIGN = ['start', 'center', 'end', 'stretch'];

/** Property tables of every basic-catalog component, bound to the walk that collects references. */
export function basicCatalog(refs: Refs): Readonly<Record<string, PropTable>> {
  const str = { check: dynamic(refs, 'string') };
  const reqStr = { required: true, check: dynamic(refs, 'string') };
  const ref = { required: true, check: componentRef(refs) };
  const children = { required: true, check: childList(refs) };
  const accessibility = objectOf(
    {
      label: str,
      hint: str,
      role: { check: oneOf(['button', 'header', 'link', 'image', 'adjustable', 'summary', 'none']) },
      hidden: { check: dynamic(refs, 'boolean') },
      liveRegion: { check: oneOf(['polite', 'assertive', 'off']) },
      state: { check: objectOf({ disabled: { check: dynamic(refs, 'boolean') }, selected: { check: dynamic(refs, 'boolean') }, expanded: { check: dynamic(refs, 'boolean') } }, 'state') },
    },
    'accessibility',
  );
  const common: PropTable = { id: { required: true, check: nonEmptyString }, accessibility: { check: accessibility }, weight: { check: literal('number') } };
  const checkable: PropTable = { ...common, checks: { check: arrayOf(checkRule(refs)) } };
  const iconName = (v: unknown, p: string) =>
    typeof v === 'string' ? oneOf(ICON_NAMES)(v, p) : objectOf({ svgPath: { required: true, check: literal('string') } }, 'icon')(v, p);
  return {
    Text: { ...common, text: reqStr, variant: { check: oneOf(['h1', 'h2', 'h3', 'h4', 'h5', 'caption', 'body']) } },
    Image: {
      ...common,
      url: reqStr,
      description: str,
      fit: { check: oneOf(['contain', 'cover', 'fill', 'none', 'scaleDown']) },
      variant: { check: oneOf(['icon', 'avatar', 'smallFeature', 'mediumFeature', 'largeFeature', 'header']) },
    },
    Icon: { ...common, name: { required: true, check: (v, p) => (typeof v === 'object' && v !== null && 'path' in v ? dynamic(refs, 'string')(v, p) : iconName(v, p)) } },
    Video: { ...common, url: reqStr },
    AudioPlayer: { ...common, url: reqStr, description: str },
    Row: { ...common, children, justify: { check: oneOf(JUSTIFY) }, align: { check: oneOf(ALIGN) } },
    Column: { ...common, children, justify: { check: oneOf(JUSTIFY) }, align: { check: oneOf(ALIGN) } },
    List: { ...common, children, direction: { check: oneOf(['vertical', 'horizontal']) }, align: { check: oneOf(ALIGN) } },
    Card: { ...common, child: ref },
    Tabs: { ...common, tabs: { required: true, check: arrayOf(objectOf({ title: reqStr, child: ref }, 'tab'), 1) } },
    Modal: { ...common, trigger: ref, content: ref },
    Divider: { ...common, axis: { check: oneOf(['horizontal', 'vertical']) } },
    Button: { ...checkable, child: ref, action: { required: true, check: action(refs) }, variant: { check: oneOf(['default', 'primary', 'borderless']) } },
    TextField: {
      ...checkable,
      label: reqStr,
      value: str,
      variant: { check: oneOf(['longText', 'number', 'shortText', 'obscured']) },
      validationRegexp: { check: literal('string') },
    },
    CheckBox: { ...checkable, label: reqStr, value: { required: true, check: dynamic(refs, 'boolean') } },
    ChoicePicker: {
      ...checkable,
      label: str,
      variant: { check: oneOf(['multipleSelection', 'mutuallyExclusive']) },
      options: { required: true, check: arrayOf(objectOf({ label: reqStr, value: { required: true, check: literal('string') } }, 'option')) },
      value: { required: true, check: dynamic(refs, 'array') },
      displayStyle: { check: oneOf(['checkbox', 'chips']) },
      filterable: { check: literal('boolean') },
    },
    Slider: { ...checkable, label: str, min: { check: literal('number') }, max: { required: true, check: literal('number') }, value: { required: true, check: dynamic(refs, 'number') } },
    DateTimeInput: {
      ...checkable,
      value: reqStr,
      enableDate: { check: literal('boolean') },
      enableTime: { check: literal('boolean') },
      min: str,
      max: str,
      label: str,
    },
  };
}
